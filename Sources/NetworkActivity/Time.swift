/// A point on a monotonic clock (one that never jumps), in microseconds from an arbitrary origin.
public struct MonotonicTime: Comparable, Hashable, Sendable {
    public var microseconds: Int64

    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    public static func < (lhs: MonotonicTime, rhs: MonotonicTime) -> Bool { lhs.microseconds < rhs.microseconds }

    public static func + (time: MonotonicTime, duration: Duration) -> MonotonicTime {
        time.advanced(byMicroseconds: duration.wholeMicroseconds)
    }

    /// The time `delta` microseconds later. Deadlines computed on every call use this with an interval converted
    /// once: converting a `Duration` divides its 128-bit attoseconds each time.
    public func advanced(byMicroseconds delta: Int64) -> MonotonicTime {
        MonotonicTime(microseconds: microseconds + delta)
    }

    /// How long from `self` until `later`; negative when `later` is earlier.
    public func duration(to later: MonotonicTime) -> Duration {
        .microseconds(later.microseconds - microseconds)
    }
}

/// A moment as both clocks see it: the monotonic one for deadlines, the wall clock for what people read.
public struct Timestamp: Sendable, Equatable {
    public var monotonic: MonotonicTime
    /// Microseconds since the Unix epoch.
    public var wallClock: UInt64

    public init(monotonic: MonotonicTime, wallClock: UInt64) {
        self.monotonic = monotonic
        self.wallClock = wallClock
    }
}

/// Where the domain learns the time; the daemon reads the system's clocks, tests move a clock of their own.
public protocol ActivityClock {
    func now() -> Timestamp
    /// The monotonic clock alone, for what needs no wall-clock time: one system call instead of two.
    func monotonicNow() -> MonotonicTime
}

extension ActivityClock {
    public func monotonicNow() -> MonotonicTime { now().monotonic }
}

extension Duration {
    /// The duration in whole microseconds, rounded towards zero.
    public var wholeMicroseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
