import NetworkActivity
import NetworkActivityInterface

/// The system's clocks: `CLOCK_MONOTONIC` for deadlines, `CLOCK_REALTIME` for what is shown.
struct SystemClock: ActivityClock {
    func now() -> Timestamp {
        Timestamp(monotonic: monotonicNow(), wallClock: SystemTime.wallClockMicroseconds())
    }

    func monotonicNow() -> MonotonicTime {
        MonotonicTime(microseconds: Int64(SystemTime.monotonicMicroseconds()))
    }
}
