/// A test's own failure, naming what it saw.
struct TestFailure: Error, CustomStringConvertible, Sendable {
    let description: String
    init(_ description: String) { self.description = description }
}
