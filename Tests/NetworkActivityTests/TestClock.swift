import NetworkActivity

/// A clock that moves only when a test moves it, in microseconds.
final class TestClock: ActivityClock {
    private(set) var monotonic = MonotonicTime(microseconds: 1_000_000)
    private(set) var wallClock: UInt64 = 1_800_000_000_000_000

    func now() -> Timestamp { Timestamp(monotonic: monotonic, wallClock: wallClock) }

    func advance(by duration: Duration) {
        monotonic = monotonic + duration
        wallClock += UInt64(duration.wholeMicroseconds)
    }

    func advance(to time: MonotonicTime) {
        advance(by: monotonic.duration(to: time))
    }
}
