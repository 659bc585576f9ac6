import Testing
import NetworkActivity
import ProgramSupport

@Suite("Visibility policy")
struct VisibilityPolicyTests {
    let start = MonotonicTime(microseconds: 10_000_000)

    private func at(_ milliseconds: Int64) -> MonotonicTime {
        start + .milliseconds(milliseconds)
    }

    @Test func withoutDelaysItFollowsActivityAtOnce() {
        var policy = VisibilityPolicy(delays: .none)
        #expect(policy.update(isBusy: true, at: at(0)) == true)
        #expect(policy.update(isBusy: false, at: at(0)) == false)
        #expect(policy.nextDeadline == nil)
    }

    @Test func showsOnlyAfterTheShowDelayWithoutABreak() {
        var policy = VisibilityPolicy(delays: .standard)
        #expect(policy.update(isBusy: true, at: at(0)) == nil)
        #expect(policy.nextDeadline == at(500))
        #expect(policy.update(isBusy: false, at: at(400)) == nil)
        #expect(policy.nextDeadline == nil)
        #expect(policy.update(isBusy: true, at: at(450)) == nil)
        #expect(policy.update(isBusy: true, at: at(949)) == nil)
        #expect(policy.update(isBusy: true, at: at(950)) == true)
    }

    @Test func hidesAfterTheHideDelayButNotBeforeTheMinimumTime() {
        var policy = VisibilityPolicy(delays: .standard)
        _ = policy.update(isBusy: true, at: at(0))
        #expect(policy.update(isBusy: true, at: at(500)) == true)
        // Idle at 600: the hide delay ends at 800, the minimum time at 1000.
        #expect(policy.update(isBusy: false, at: at(600)) == nil)
        #expect(policy.nextDeadline == at(1000))
        #expect(policy.update(isBusy: false, at: at(999)) == nil)
        #expect(policy.update(isBusy: false, at: at(1000)) == false)
    }

    @Test func aShortBreakDoesNotHide() {
        var policy = VisibilityPolicy(delays: .standard)
        _ = policy.update(isBusy: true, at: at(0))
        _ = policy.update(isBusy: true, at: at(500))
        #expect(policy.update(isBusy: false, at: at(2000)) == nil)
        #expect(policy.update(isBusy: true, at: at(2199)) == nil)
        #expect(policy.nextDeadline == nil)
        #expect(policy.isVisible)
        #expect(policy.update(isBusy: false, at: at(3000)) == nil)
        #expect(policy.update(isBusy: false, at: at(3200)) == false)
    }
}
