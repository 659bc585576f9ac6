#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A moment on `CLOCK_MONOTONIC`, in nanoseconds: when an awaited reply is overdue.
///
/// Not `ContinuousClock.Instant`, which reads the same clock: that clock belongs to Swift's concurrency runtime, and
/// a program that names it links the runtime and libdispatch in, whose relocations and initializers cost the
/// daemon 35 page faults at each start (docs/performance.md). Its size is also known at compile time, where that
/// of `ContinuousClock.Instant` is looked up on each use.
package struct MonotonicInstant: Comparable, Sendable {
    private let nanoseconds: Int64

    private init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    package static var now: MonotonicInstant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicInstant(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    package static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    package static func + (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        let (seconds, attoseconds) = duration.components
        return MonotonicInstant(
            nanoseconds: instant.nanoseconds &+ seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000)
    }

    /// How long from `self` until `later`; negative when `later` is earlier.
    package func duration(to later: MonotonicInstant) -> Duration {
        .nanoseconds(later.nanoseconds &- nanoseconds)
    }
}
