// SPDX-License-Identifier: Apache-2.0
/// The id the service gives an activity: unique among the activities it has begun since it started.
///
/// An `Activity` carries its id; `NetworkActivityClient.end(_:)` takes one, for a timed activity that another
/// program (or an earlier run of this one) began. It reads and writes as the bare number, in text and in JSON.
public struct ActivityID: RawRepresentable, Sendable, Hashable, Codable, Comparable, LosslessStringConvertible {
    /// The number the service uses on the bus.
    public let rawValue: UInt32

    /// The id the service gave as this number.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The id written as a decimal number, as `netactivity begin` prints it; nil for anything else.
    public init?(_ description: String) {
        guard let value = UInt32(description) else { return nil }
        rawValue = value
    }

    /// The number in decimal, as `netactivity` prints it.
    public var description: String { String(rawValue) }

    /// Ids in the order the service gave them.
    public static func < (lhs: ActivityID, rhs: ActivityID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Reads the bare number.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(UInt32.self)
    }

    /// Writes the bare number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
