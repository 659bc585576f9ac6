// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A point on the monotonic clock (`CLOCK_MONOTONIC`, which never jumps when the wall clock is set), in
/// microseconds from an arbitrary origin: deadlines, delays and timers, in every layer.
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

    /// The system's monotonic clock now: for what no test needs to move (a call's reply deadline).
    public static var now: MonotonicTime { SystemClock().monotonicNow() }
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

/// Where code that waits or shows times learns the time: the programs read the system's clocks (`SystemClock`),
/// tests move a clock of their own.
public protocol TimeSource {
    func now() -> Timestamp
    /// The monotonic clock alone, for what needs no wall-clock time: one system call instead of two.
    func monotonicNow() -> MonotonicTime
}

extension TimeSource {
    public func monotonicNow() -> MonotonicTime { now().monotonic }
}

/// The system's clocks: `CLOCK_MONOTONIC` for deadlines, `CLOCK_REALTIME` for what is shown.
public struct SystemClock: TimeSource, Sendable {
    public init() {}

    @inlinable
    public func now() -> Timestamp {
        Timestamp(monotonic: monotonicNow(), wallClock: Self.wallClockMicroseconds())
    }

    @inlinable
    public func monotonicNow() -> MonotonicTime {
        MonotonicTime(microseconds: Int64(Self.microseconds(of: CLOCK_MONOTONIC)))
    }

    /// `CLOCK_REALTIME`: microseconds since the Unix epoch, as `ListActivities` gives starts and deadlines.
    @inlinable
    public static func wallClockMicroseconds() -> UInt64 {
        microseconds(of: CLOCK_REALTIME)
    }

    @usableFromInline
    static func microseconds(of clock: clockid_t) -> UInt64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return UInt64(time.tv_sec) * 1_000_000 + UInt64(time.tv_nsec) / 1000
    }
}

extension Duration {
    /// The duration in whole microseconds, rounded towards zero.
    public var wholeMicroseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
