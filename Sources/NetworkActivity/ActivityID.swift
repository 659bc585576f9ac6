// SPDX-License-Identifier: Apache-2.0
/// Identifies one activity for as long as the service runs: ids start at 1, are never 0 and never reused.
public struct ActivityID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    public static func < (lhs: ActivityID, rhs: ActivityID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { String(rawValue) }
}
