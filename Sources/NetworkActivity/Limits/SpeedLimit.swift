// SPDX-License-Identifier: Apache-2.0

/// How fast an app may move data, each way in bytes a second: nil for no limit that way.
public struct SpeedLimit: Sendable, Hashable {
    public var down: UInt64?
    public var up: UInt64?

    /// The slowest and fastest rates a limit may have: below a kilobyte a second, a single packet would wait for
    /// more than a second; above a terabyte, no interface a desktop has would feel it.
    public static let slowest: UInt64 = 1_000
    public static let fastest: UInt64 = 1_000_000_000_000

    public init(down: UInt64? = nil, up: UInt64? = nil) {
        self.down = down
        self.up = up
    }

    /// Whether it limits either way.
    public var limits: Bool { down != nil || up != nil }
}
