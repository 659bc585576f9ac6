#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The system's clocks, read in microseconds: the unit of the interface's times. Every program of the project reads
/// them here; inlinable, since the service reads them on every call.
public enum SystemTime {
    /// `CLOCK_REALTIME`: microseconds since the Unix epoch, as `ListActivities` gives starts and deadlines.
    @inlinable
    public static func wallClockMicroseconds() -> UInt64 {
        microseconds(of: CLOCK_REALTIME)
    }

    /// `CLOCK_MONOTONIC`: the clock deadlines run on, which never jumps when the wall clock is set.
    @inlinable
    public static func monotonicMicroseconds() -> UInt64 {
        microseconds(of: CLOCK_MONOTONIC)
    }

    @usableFromInline
    static func microseconds(of clock: clockid_t) -> UInt64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return UInt64(time.tv_sec) * 1_000_000 + UInt64(time.tv_nsec) / 1000
    }
}
