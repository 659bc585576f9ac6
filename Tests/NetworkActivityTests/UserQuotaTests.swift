import TestSupport
import Testing
@testable import NetworkActivity

@Suite("Activity tracker: the per-user quota")
struct UserQuotaTests {
    let clock = TestClock()

    /// Callers `:1.N` belong to user 1001 for even N, 1002 for odd N; every question is counted.
    final class Users {
        var asked: [String] = []
        func userOf(_ caller: String) -> UInt32? {
            asked.append(caller)
            return Int(caller.split(separator: ".").last ?? "")! % 2 == 0 ? 1001 : 1002
        }
    }

    private func label() throws -> ActivityLabel { try ActivityLabel("lease") }

    /// The hole: a user who reconnects makes new leases with each connection, since timed activities stop counting
    /// against a connection when it leaves. They count against the user.
    @Test func reconnectingDoesNotResetTheUsersQuota() throws {
        var tracker = ActivityTracker(limits: ActivityLimits(perCaller: 10, perUser: 25, total: 50))
        let users = Users()
        var made = 0
        var refusal: ActivityError?
        rounds: for round in 0..<10 {
            let caller = ":1.\(round * 2)"
            for _ in 0..<10 {
                do {
                    _ = try tracker.beginTimed(label: label(), caller: caller, user: 1001, seconds: 86_400,
                                               at: clock.now(), userOf: users.userOf)
                    made += 1
                } catch {
                    refusal = error as? ActivityError
                    break rounds
                }
            }
            #expect(tracker.callerLeft(caller).count == 0, "leases outlive their connection")
        }
        #expect(made == 25)
        #expect(refusal == .userLimitExceeded(limit: 25))
        #expect(tracker.count == 25 && tracker.count(ofUser: 1001) == 25)

        // Another user is still served, bound and timed, and the refused user's bound Begin is refused too.
        _ = try tracker.begin(label: label(), caller: ":1.101", at: clock.now(), userOf: users.userOf)
        _ = try tracker.beginTimed(label: label(), caller: ":1.101", user: 1002, seconds: 60, at: clock.now(),
                                   userOf: users.userOf)
        #expect(tracker.count(ofUser: 1002) == 2)
        #expect(throws: ActivityError.userLimitExceeded(limit: 25)) {
            try tracker.begin(label: label(), caller: ":1.200", at: clock.now(), userOf: users.userOf)
        }
        #expect(tracker.count == 27, "a refusal changes nothing")

        // The leases expire and free the quota.
        clock.advance(by: .seconds(86_400))
        #expect(tracker.expire(at: clock.monotonicNow()).count == 26)
        #expect(tracker.count(ofUser: 1001) == 0)
        _ = try tracker.beginTimed(label: label(), caller: ":1.202", user: 1001, seconds: 60, at: clock.now(),
                                   userOf: users.userOf)
        #expect(tracker.count(ofUser: 1001) == 1)
    }

    /// Bound activities from many connections of one user: nobody is asked while fewer are live than the quota;
    /// then each pending caller is asked once, and the quota holds.
    @Test func boundActivitiesOfManyConnectionsCountAgainstTheirUserOnceTheQuotaIsNear() throws {
        var tracker = ActivityTracker(limits: ActivityLimits(perCaller: 4, perUser: 12, total: 100))
        let users = Users()
        for caller in stride(from: 0, to: 6, by: 2) {
            for _ in 0..<4 { _ = try tracker.begin(label: label(), caller: ":1.\(caller)", at: clock.now(), userOf: users.userOf) }
        }
        #expect(tracker.count == 12)
        #expect(users.asked.isEmpty, "no user is asked for while no one can be at the quota")

        // The next Begin of user 1001 finds the quota reached, once every pending caller is counted.
        #expect(throws: ActivityError.userLimitExceeded(limit: 12)) {
            try tracker.begin(label: label(), caller: ":1.6", at: clock.now(), userOf: users.userOf)
        }
        #expect(Set(users.asked) == [":1.0", ":1.2", ":1.4", ":1.6"])
        #expect(tracker.count(ofUser: 1001) == 12 && tracker.count == 12)

        // User 1002 is served; asked once, at its first Begin.
        _ = try tracker.begin(label: label(), caller: ":1.7", at: clock.now(), userOf: users.userOf)
        _ = try tracker.begin(label: label(), caller: ":1.7", at: clock.now(), userOf: users.userOf)
        #expect(users.asked.filter { $0 == ":1.7" }.count == 1)
        #expect(tracker.count(ofUser: 1002) == 2)

        // Ending, cancelling and leaving give the quota back.
        let first = try #require(tracker.all.first { $0.owner == ":1.0" })
        _ = try tracker.end(first.id, caller: ":1.0") { nil }
        #expect(tracker.count(ofUser: 1001) == 11)
        #expect(tracker.cancel(caller: ":1.2").count == 4)
        #expect(tracker.callerLeft(":1.4").count == 4)
        #expect(tracker.count(ofUser: 1001) == 3)
        // Far from the quota again: a new caller's activity is pending, counted against no one yet.
        _ = try tracker.begin(label: label(), caller: ":1.8", at: clock.now(), userOf: users.userOf)
        #expect(tracker.count(ofUser: 1001) == 3 && !users.asked.contains(":1.8"))
        _ = tracker.reset()
        #expect(tracker.count(ofUser: 1001) == 0 && tracker.count(ofUser: 1002) == 0)
    }

    /// A caller the bus can no longer tell the user of has left it; its bound activity is let in, counted against
    /// no one, and ends with it.
    @Test func aCallerWhoseUserCannotBeToldIsCountedAgainstNoOne() throws {
        var tracker = ActivityTracker(limits: ActivityLimits(perCaller: 4, perUser: 2, total: 10))
        _ = try tracker.begin(label: label(), caller: ":1.1", at: clock.now()) { _ in 1001 }
        _ = try tracker.begin(label: label(), caller: ":1.1", at: clock.now()) { _ in 1001 }
        _ = try tracker.begin(label: label(), caller: ":1.9", at: clock.now()) { _ in nil }
        #expect(tracker.count == 3)
        #expect(throws: ActivityError.userLimitExceeded(limit: 2)) {
            try tracker.begin(label: label(), caller: ":1.1", at: clock.now()) { _ in 1001 }
        }
        #expect(tracker.count(ofUser: 1001) == 2)
        #expect(tracker.callerLeft(":1.9").count == 1)
        #expect(tracker.count == 2 && tracker.count(ofUser: 1001) == 2)
    }

    @Test func aLeaseLongerThanTheMaximumTimeoutIsRefused() throws {
        var tracker = ActivityTracker(limits: ActivityLimits(maximumTimeoutSeconds: 600))
        #expect(throws: ActivityError.invalidTimeout(seconds: 601, maximum: 600)) {
            try tracker.beginTimed(label: label(), caller: ":1.1", user: 1001, seconds: 601, at: clock.now())
        }
        _ = try tracker.beginTimed(label: label(), caller: ":1.1", user: 1001, seconds: 600, at: clock.now())
        #expect(tracker.count == 1)
    }
}
