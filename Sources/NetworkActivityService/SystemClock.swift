#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NetworkActivity

/// The system's clocks: `CLOCK_MONOTONIC` for deadlines, `CLOCK_REALTIME` for what is shown.
struct SystemClock: ActivityClock {
    func now() -> Timestamp {
        Timestamp(monotonic: MonotonicTime(microseconds: Int64(Self.microseconds(CLOCK_MONOTONIC))),
                  wallClock: Self.microseconds(CLOCK_REALTIME))
    }

    func monotonicNow() -> MonotonicTime {
        MonotonicTime(microseconds: Int64(Self.microseconds(CLOCK_MONOTONIC)))
    }

    private static func microseconds(_ clock: clockid_t) -> UInt64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return UInt64(time.tv_sec) * 1_000_000 + UInt64(time.tv_nsec) / 1000
    }
}
