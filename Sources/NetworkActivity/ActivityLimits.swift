// SPDX-License-Identifier: Apache-2.0
/// How many activities may be live at once, and for how long a timed one may last; past a count, Begin fails with
/// `LimitExceeded`.
public struct ActivityLimits: Sendable, Equatable {
    /// Live activities that one connection has begun, timed ones included.
    public var perCaller: Int
    /// Live activities that one Unix user has begun, bound and timed, from any of its connections: what keeps a
    /// user who connects again and again from filling the table.
    public var perUser: Int
    /// Live activities of all callers together.
    public var total: Int
    /// The longest a timed activity may last, in seconds.
    public var maximumTimeoutSeconds: UInt32

    public init(perCaller: Int = 1024, perUser: Int = 4096, total: Int = 65536, maximumTimeoutSeconds: UInt32 = 86_400) {
        self.perCaller = perCaller
        self.perUser = perUser
        self.total = total
        self.maximumTimeoutSeconds = maximumTimeoutSeconds
    }
}
