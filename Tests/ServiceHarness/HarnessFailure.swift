/// Something the harness was asked to set up did not come about: a bus that did not start, a daemon that did not
/// take its name, an answer that did not come in time.
public struct HarnessFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
