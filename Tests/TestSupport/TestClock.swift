public import NetworkActivity

/// A clock that moves only when a test moves it, in microseconds: the domain's tests and the service's use it.
public final class TestClock: ActivityClock {
    public init() {}

    public private(set) var monotonic = MonotonicTime(microseconds: 1_000_000)
    public private(set) var wallClock: UInt64 = 1_800_000_000_000_000

    public func now() -> Timestamp { Timestamp(monotonic: monotonic, wallClock: wallClock) }

    public func advance(by duration: Duration) {
        monotonic = monotonic + duration
        wallClock += UInt64(duration.wholeMicroseconds)
    }

    public func advance(to time: MonotonicTime) {
        advance(by: monotonic.duration(to: time))
    }
}
