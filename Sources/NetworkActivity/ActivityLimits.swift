/// How many activities may be live at once; past either limit, Begin fails with `LimitExceeded`.
public struct ActivityLimits: Sendable, Equatable {
    /// Live activities that one connection has begun, timed ones included.
    public var perCaller: Int
    /// Live activities of all callers together.
    public var total: Int

    public init(perCaller: Int = 1024, total: Int = 65536) {
        self.perCaller = perCaller
        self.total = total
    }
}
