import NetworkActivity
import ProgramSupport
import Testing

/// The rules that make measured traffic an activity, with counts and times the test chooses: 2 s at or above the
/// threshold begin one, 3 s below end it, and an app that falls below before that is let go.
@Suite("Measured traffic, in memory")
struct TrafficWatchTests {
    static let threshold: UInt64 = 32_768
    var watch = TrafficWatch<String>(threshold: threshold)
    var time = MonotonicTime(microseconds: 1_000_000)
    var counts = ByteCounts()

    /// One second later, with `received` and `sent` more bytes.
    mutating func second(_ received: UInt64, _ sent: UInt64 = 0, key: String = "app") -> TrafficWatch<String>.Step {
        time = time + .seconds(1)
        counts.received += received
        counts.sent += sent
        return watch.sample(key, counts: counts, at: time)
    }

    @Test mutating func twoSecondsAboveBeginAnActivityAndThreeBelowEndIt() {
        watch.wokeUp(for: "app", user: 1000, counts: counts, at: time)
        #expect(watch.isFollowing)
        guard case .shows(let first) = second(100_000, 4_000) else { Issue.record("no activity after 2 s"); return }
        #expect(first.rate == 104_000 && first.done == 0)
        guard case .shows(let next) = second(200_000) else { Issue.record("the activity did not go on"); return }
        #expect(next.received == 200_000 && next.sent == 0 && next.done == 200_000)
        // Smoothed as SetTransfer's rate: a quarter of the way to the new rate after a second.
        #expect(next.rate > 104_000 && next.rate < 200_000)
        #expect(second(1_000) != .letGo(hadActivity: true))
        #expect(second(1_000) != .letGo(hadActivity: true))
        #expect(second(1_000) == .letGo(hadActivity: true))
        #expect(!watch.isFollowing)
    }

    /// A paused app moves nothing, yet its activity stays, its rate 0; released, it has as long as it was held
    /// before slow seconds count (TCP retransmits about that late), and its rate grows again from 0.
    @Test mutating func aHeldAppStaysAtRateZeroAndAfterReleaseWaitsAsLongAsItWasHeld() {
        watch.wokeUp(for: "app", user: 1000, counts: counts, at: time)
        _ = second(100_000)
        watch.pause("app", at: time)
        #expect(watch.isPaused("app"))
        for _ in 0..<8 {
            guard case .shows(let held) = second(0) else { Issue.record("a held app was let go"); return }
            #expect(held.rate == 0 && held.received == 0)
        }
        watch.resume("app", at: time)
        #expect(!watch.isPaused("app"))
        // Held for 8 s: 8 slow seconds do not count; the 3 after them end it.
        for _ in 0..<8 { #expect(second(0) != .letGo(hadActivity: true)) }
        #expect(second(0) != .letGo(hadActivity: true))
        #expect(second(0) != .letGo(hadActivity: true))
        #expect(second(0) == .letGo(hadActivity: true))

        // Traffic that comes back within the wait: the activity goes on, its rate from 0 towards the new one.
        watch.wokeUp(for: "other", user: 1000, counts: counts, at: time)
        _ = second(100_000, key: "other")
        guard case .shows = second(100_000, key: "other") else { Issue.record("no activity"); return }
        watch.pause("other", at: time)
        _ = second(0, key: "other")
        watch.resume("other", at: time)
        _ = second(0, key: "other")
        guard case .shows(let back) = second(100_000, key: "other") else { Issue.record("it ended"); return }
        #expect(back.rate > 0 && back.rate < 100_000, "\(back)")
    }

    @Test mutating func anAppBelowTheThresholdBeforeTwoSecondsIsLetGoWithoutAnActivity() {
        watch.wokeUp(for: "app", user: 1000, counts: counts, at: time)
        #expect(second(Self.threshold - 1) == .letGo(hadActivity: false))
        #expect(!watch.isFollowing)
        // A wake-up of an app not followed is a new start.
        watch.wokeUp(for: "app", user: 1000, counts: counts, at: time)
        #expect(second(Self.threshold) != .letGo(hadActivity: false))
    }

    @Test mutating func anAppTheKernelForgotOrWhoseCountsWentBackIsLetGo() {
        watch.wokeUp(for: "app", user: 1000, counts: counts, at: time)
        _ = second(100_000)
        time = time + .seconds(1)
        #expect(watch.sample("app", counts: nil, at: time) == .letGo(hadActivity: true))
        watch.wokeUp(for: "other", user: 1000, counts: ByteCounts(received: 500, sent: 0), at: time)
        time = time + .seconds(1)
        #expect(watch.sample("other", counts: ByteCounts(received: 10, sent: 0), at: time) == .letGo(hadActivity: false))
    }

    @Test mutating func anAppNotFollowedWaits() {
        #expect(second(1_000_000, key: "stranger") == .waits)
        #expect(!watch.isFollowing)
    }

    /// A user who makes many apps move at once has `limitPerUser` of them followed; the others wait, and one is
    /// released for the kernel to wake again each time one of that user's is let go. Another user is not held up.
    @Test func eachUsersAppsAreFollowedAFewAtATime() {
        var watch = TrafficWatch<String>(threshold: Self.threshold, limitPerUser: 2)
        let time = MonotonicTime(microseconds: 1_000_000)
        let followed = (0..<5).map { watch.wokeUp(for: "flood-\($0)", user: 4343, counts: ByteCounts(received: 0, sent: 0), at: time) }
        #expect(followed == [true, true, false, false, false])
        // The same app woken twice waits once.
        let again = watch.wokeUp(for: "flood-3", user: 4343, counts: ByteCounts(received: 0, sent: 0), at: time)
        let other = watch.wokeUp(for: "own", user: 1000, counts: ByteCounts(received: 0, sent: 0), at: time)
        #expect(!again && other)
        #expect(Set(watch.followedKeys) == ["flood-0", "flood-1", "own"])
        var released = watch.takeReleased()
        #expect(released.isEmpty)

        // flood-0 falls below: flood-2, the first that waited, may wake the service again.
        let step = watch.sample("flood-0", counts: ByteCounts(received: 10, sent: 0), at: time + .seconds(1))
        #expect(step == .letGo(hadActivity: false))
        released = watch.takeReleased()
        #expect(released == ["flood-2"])
        released = watch.takeReleased()
        #expect(released.isEmpty)
        let readmitted = watch.wokeUp(for: "flood-2", user: 4343, counts: ByteCounts(received: 0, sent: 0), at: time + .seconds(1))
        let full = watch.wokeUp(for: "flood-0", user: 4343, counts: ByteCounts(received: 0, sent: 0), at: time + .seconds(1))
        #expect(readmitted && !full)
    }
}
