public import ProgramSupport

/// A clock that moves only when a test moves it, in microseconds: the domain's, the service's and the tray's tests
/// use it. A test may move it while a loop of its own reads it on another thread.
public final class TestClock: TimeSource, Sendable {
    private let time = Lock(Timestamp(monotonic: MonotonicTime(microseconds: 1_000_000),
                                       wallClock: 1_800_000_000_000_000))

    public init() {}

    public var monotonic: MonotonicTime { now().monotonic }
    public var wallClock: UInt64 { now().wallClock }

    public func now() -> Timestamp { time.withLock { $0 } }

    public func advance(by duration: Duration) {
        time.withLock { time in
            time.monotonic = time.monotonic + duration
            time.wallClock += UInt64(duration.wholeMicroseconds)
        }
    }

    public func advance(to target: MonotonicTime) {
        advance(by: monotonic.duration(to: target))
    }
}
