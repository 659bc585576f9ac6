import TestSupport
import Testing
@testable import NetworkActivity
import ProgramSupport

@Suite("Activity tracker")
struct ActivityTrackerTests {
    let clock = TestClock()
    var tracker = ActivityTracker(limits: ActivityLimits(perCaller: 3, total: 5))

    private func label(_ text: String = "mail") throws -> ActivityLabel { try ActivityLabel(text) }

    @Test func idsStartAtOneAndAreNeverReused() throws {
        var tracker = tracker
        let first = try tracker.begin(label: label(), caller: ":1.1", at: clock.now())
        _ = try tracker.end(first, caller: ":1.1") { nil }
        let second = try tracker.begin(label: label(), caller: ":1.1", at: clock.now())
        #expect(first.rawValue == 1)
        #expect(second.rawValue == 2)
    }

    /// The tables are rebuilt smaller as a crowd leaves; what remains must stay findable through every rebuild.
    @Test func theActivitiesLeftAfterACrowdHasGoneAreStillFoundAndEnded() throws {
        var tracker = ActivityTracker(limits: ActivityLimits(perCaller: 10, perUser: 10_000, total: 10_000))
        var kept: [ActivityID] = []
        for caller in 0..<1000 {
            for index in 0..<10 {
                let id = try tracker.begin(label: label(), caller: ":1.\(caller)", at: clock.now())
                if caller % 100 == 0 && index == 0 { kept.append(id) }
            }
        }
        for caller in 0..<1000 where caller % 100 != 0 {
            #expect(tracker.callerLeft(":1.\(caller)").count == 10)
        }
        for caller in stride(from: 0, to: 1000, by: 100) {
            for id in tracker.all.filter({ $0.owner == ":1.\(caller)" }).map(\.id) where !kept.contains(id) {
                _ = try tracker.end(id, caller: ":1.\(caller)") { nil }
            }
        }
        #expect(tracker.all.map(\.id) == kept)
        for (index, id) in kept.enumerated() {
            #expect(try tracker.end(id, caller: ":1.\(index * 100)") { nil }.id == id)
        }
        #expect(tracker.count == 0)
        #expect(try tracker.begin(label: label(), caller: ":1.1", at: clock.now()).rawValue == 10_001)
    }

    /// Long labels are pooled; each activity still shows its own, whatever ended before it.
    @Test func pooledLongLabelsStayTheLabelsTheyWereBegunWith() throws {
        var tracker = ActivityTracker(limits: ActivityLimits(perCaller: 10, total: 10))
        let mail = "org.example.Mail: syncing INBOX", backup = "org.example.Backup: uploading"
        let first = try tracker.begin(label: label(mail), caller: ":1.1", at: clock.now())
        let second = try tracker.begin(label: label(mail), caller: ":1.2", at: clock.now())
        let third = try tracker.begin(label: label(backup), caller: ":1.1", at: clock.now())
        _ = try tracker.end(first, caller: ":1.1") { nil }
        #expect(tracker[second]?.label.text == mail)
        #expect(tracker.callerLeft(":1.2").count == 1)
        let fourth = try tracker.begin(label: label(mail), caller: ":1.3", at: clock.now())
        #expect(tracker.all.map(\.label.text) == [backup, mail])
        #expect(tracker[third]?.label.text == backup && tracker[fourth]?.label.text == mail)
    }

    @Test func onlyTheOwnerEndsABoundActivity() throws {
        var tracker = tracker
        let id = try tracker.begin(label: label(), caller: ":1.1", at: clock.now())
        #expect(throws: ActivityError.notOwner(id)) { try tracker.end(id, caller: ":1.2") { 1000 } }
        #expect(tracker.count == 1)
        let ended = try tracker.end(id, caller: ":1.1") { nil }
        #expect(ended.id == id && ended.activity.owner == ":1.1")
        #expect(tracker.count == 0)
    }

    @Test func endingAnUnknownOrEndedIdChangesNothing() throws {
        var tracker = tracker
        let id = try tracker.begin(label: label(), caller: ":1.1", at: clock.now())
        #expect(throws: ActivityError.unknownActivity(ActivityID(rawValue: 99))) {
            try tracker.end(ActivityID(rawValue: 99), caller: ":1.1") { nil }
        }
        _ = try tracker.end(id, caller: ":1.1") { nil }
        #expect(throws: ActivityError.unknownActivity(id)) { try tracker.end(id, caller: ":1.1") { nil } }
        #expect(tracker.count == 0)
    }

    @Test func aTimedActivityMayBeEndedByAnyConnectionOfItsUser() throws {
        var tracker = tracker
        let id = try tracker.beginTimed(label: label(), caller: ":1.1", user: 1000, seconds: 60, at: clock.now())
        #expect(throws: ActivityError.notOwner(id)) { try tracker.end(id, caller: ":1.2") { 1001 } }
        #expect(throws: ActivityError.notOwner(id)) { try tracker.end(id, caller: ":1.2") { nil } }
        _ = try tracker.end(id, caller: ":1.2") { 1000 }
        #expect(tracker.count == 0)
    }

    @Test func aTimedActivityOutlivesItsCallerAndEndsAtItsDeadline() throws {
        var tracker = tracker
        let start = clock.now()
        let timed = try tracker.beginTimed(label: label(), caller: ":1.1", user: 1000, seconds: 2, at: start)
        _ = try tracker.begin(label: label(), caller: ":1.1", at: start)
        #expect(tracker.callerLeft(":1.1").count == 1)
        #expect(tracker.count == 1)
        let deadline = start.monotonic + .seconds(2)
        #expect(tracker.nextDeadline == deadline)
        #expect(tracker.expire(at: MonotonicTime(microseconds: deadline.microseconds - 1)).isEmpty)
        #expect(tracker.expire(at: deadline).map(\.id) == [timed])
        #expect(tracker.count == 0)
        #expect(tracker.nextDeadline == nil)
    }

    @Test func listedDeadlinesAreWallClockMicroseconds() throws {
        var tracker = tracker
        let now = clock.now()
        let id = try tracker.beginTimed(label: label("sync"), caller: ":1.1", user: 0, seconds: 10, at: now)
        let activity = try #require(tracker[id])
        #expect(activity.startedAt == now.wallClock)
        #expect(activity.expiry?.wallClockDeadline == now.wallClock + 10_000_000)
    }

    @Test(arguments: [0, 86_401, UInt32.max])
    func timeoutsOutOfRangeAreRefused(seconds: UInt32) throws {
        var tracker = tracker
        #expect(throws: ActivityError.invalidTimeout(seconds: seconds, maximum: 86_400)) {
            try tracker.beginTimed(label: label(), caller: ":1.1", user: 0, seconds: seconds, at: clock.now())
        }
        #expect(tracker.count == 0)
    }

    @Test func cancelEndsTheCallersActivitiesTimedOnesIncludedAndNoOneElses() throws {
        var tracker = tracker
        _ = try tracker.begin(label: label(), caller: ":1.1", at: clock.now())
        _ = try tracker.beginTimed(label: label(), caller: ":1.1", user: 0, seconds: 9, at: clock.now())
        let other = try tracker.begin(label: label(), caller: ":1.2", at: clock.now())
        #expect(tracker.cancel(caller: ":1.1").count == 2)
        #expect(tracker.all.map(\.id) == [other])
        #expect(tracker.cancel(caller: ":1.1").isEmpty)
    }

    @Test func limitsPerCallerAndInTotalRefuseWithoutChange() throws {
        var tracker = tracker
        for _ in 0..<3 { _ = try tracker.begin(label: label(), caller: ":1.1", at: clock.now()) }
        #expect(throws: ActivityError.callerLimitExceeded(limit: 3)) {
            try tracker.beginTimed(label: label(), caller: ":1.1", user: 0, seconds: 5, at: clock.now())
        }
        _ = try tracker.begin(label: label(), caller: ":1.2", at: clock.now())
        _ = try tracker.begin(label: label(), caller: ":1.3", at: clock.now())
        #expect(throws: ActivityError.totalLimitExceeded(limit: 5)) {
            try tracker.begin(label: label(), caller: ":1.4", at: clock.now())
        }
        #expect(tracker.count == 5)
        // Room made by one caller is usable by another.
        _ = tracker.cancel(caller: ":1.2")
        _ = try tracker.begin(label: label(), caller: ":1.4", at: clock.now())
    }

    @Test func anEndMakesRoomForTheSameCallerAndARefusalUsesNoID() throws {
        var tracker = tracker
        var ids = try (0..<3).map { _ in try tracker.begin(label: label(), caller: ":1.1", at: clock.now()) }
        #expect(throws: ActivityError.callerLimitExceeded(limit: 3)) {
            try tracker.begin(label: label(), caller: ":1.1", at: clock.now())
        }
        _ = try tracker.end(ids.removeFirst(), caller: ":1.1") { nil }
        ids.append(try tracker.begin(label: label(), caller: ":1.1", at: clock.now()))
        #expect(ids.map(\.rawValue) == [2, 3, 4])
        #expect(tracker.all.map(\.id) == ids)
    }

    /// Each caller's activities are linked to one another; ending them in any order, by any of the ways there are,
    /// must leave every list whole.
    @Test func everyWayOfEndingKeepsTheCallersListsWhole() throws {
        var tracker = ActivityTracker(limits: ActivityLimits(perCaller: 6, total: 20))
        func begin(_ caller: String, timed: Bool = false) throws -> ActivityID {
            timed ? try tracker.beginTimed(label: label(), caller: caller, user: 7, seconds: 5, at: clock.now())
                : try tracker.begin(label: label(), caller: caller, at: clock.now())
        }
        let a = try (0..<5).map { try begin(":1.1", timed: $0 == 2) }
        let b = try (0..<3).map { _ in try begin(":1.2") }
        _ = try tracker.end(a[2], caller: ":1.9") { 7 }  // a timed one, by another connection of its user
        _ = try tracker.end(a[4], caller: ":1.1") { nil }  // the newest
        _ = try tracker.end(a[0], caller: ":1.1") { nil }  // the oldest
        #expect(Set(tracker.cancel(caller: ":1.1").map(\.id)) == [a[1], a[3]])
        // The ended ones no longer count against the caller's limit.
        let c = try (0..<6).map { try begin(":1.1", timed: $0 == 3) }
        _ = try tracker.end(c[1], caller: ":1.1") { nil }
        #expect(tracker.callerLeft(":1.1").count == 4)
        #expect(tracker.all.map(\.id) == b + [c[3]])
        clock.advance(by: .seconds(5))
        #expect(tracker.expire(at: clock.now().monotonic).map(\.id) == [c[3]])
        #expect(tracker.cancel(caller: ":1.2").map(\.id) == b.reversed())
        #expect(tracker.count == 0)
    }

    /// Callers arriving and leaving in any order, and a copy of the tracker that goes its own way, checked against a
    /// plain model over thousands of mixed requests.
    @Test func callersComingAndGoingInAnyOrderKeepEveryCountRight() throws {
        var tracker = ActivityTracker(limits: ActivityLimits(perCaller: 8, perUser: 10_000, total: 10_000))
        var model: [String: [ActivityID]] = [:]
        var random = SplitMix64(seed: 19)
        var snapshot: (tracker: ActivityTracker, model: [String: [ActivityID]])?
        for step in 0..<6_000 {
            let caller = ":1.\(Int.random(in: 0..<40, using: &random))"
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5 where (model[caller]?.count ?? 0) < 8:
                model[caller, default: []].append(try tracker.begin(label: label(), caller: caller, at: clock.now()))
            case 5..<8:
                guard let id = model[caller]?.randomElement(using: &random) else { continue }
                let other = ":1.\(Int.random(in: 40..<45, using: &random))"
                #expect(throws: ActivityError.notOwner(id)) { try tracker.end(id, caller: other) { nil } }
                #expect(try tracker.end(id, caller: caller) { nil }.id == id)
                model[caller]?.removeAll { $0 == id }
            case 8:
                #expect(tracker.callerLeft(caller).count == model.removeValue(forKey: caller)?.count ?? 0)
            default:
                #expect(Set(tracker.cancel(caller: caller).map(\.id)) == Set(model[caller] ?? []))
                model[caller] = []
            }
            if step == 3_000 { snapshot = (tracker, model) }
        }
        #expect(tracker.count == model.values.map(\.count).reduce(0, +))
        #expect(Set(tracker.all.map(\.id)) == Set(model.values.joined()))
        // The copy taken halfway kept its own state, and its own memory of where callers are.
        var (copy, copiedModel) = try #require(snapshot)
        for (caller, ids) in copiedModel {
            #expect(Set(copy.cancel(caller: caller).map(\.id)) == Set(ids))
        }
        #expect(copy.count == 0)
    }

    @Test func resetEndsEverything() throws {
        var tracker = tracker
        _ = try tracker.begin(label: label(), caller: ":1.1", at: clock.now())
        _ = try tracker.beginTimed(label: label(), caller: ":1.2", user: 0, seconds: 5, at: clock.now())
        #expect(tracker.reset().count == 2)
        #expect(tracker.count == 0 && tracker.nextDeadline == nil)
    }

    @Test func listingIsOrderedById() throws {
        var tracker = ActivityTracker()
        for caller in 0..<50 { _ = try tracker.begin(label: label(), caller: ":1.\(caller)", at: clock.now()) }
        let ids = tracker.all.map(\.id.rawValue)
        #expect(ids == Array(1...50))
    }

    @Test func earlyEndedTimedActivitiesDoNotFireOrLinger() throws {
        var tracker = ActivityTracker()
        var survivors: [ActivityID] = []
        for index in 0..<1000 {
            let id = try tracker.beginTimed(
                label: label(), caller: ":1.1", user: 0, seconds: UInt32(1 + index % 50), at: clock.now())
            if index % 10 == 0 { survivors.append(id) } else { _ = try tracker.end(id, caller: ":1.1") { 0 } }
        }
        clock.advance(by: .seconds(60))
        let expired = tracker.expire(at: clock.now().monotonic)
        #expect(Set(expired.map(\.id)) == Set(survivors))
        #expect(tracker.nextDeadline == nil)
    }
}

@Suite("Activity labels")
struct ActivityLabelTests {
    @Test(arguments: ["", "mail", String(repeating: "é", count: 128), "Überweisung 🚀"])
    func acceptedLabels(text: String) throws {
        #expect(try ActivityLabel(text).text == text)
    }

    @Test(arguments: [String(repeating: "a", count: 257), "line\nbreak", "tab\there", "nul\u{0}", "del\u{7F}", "c1\u{85}"])
    func refusedLabels(text: String) {
        #expect(throws: ActivityError.self) { try ActivityLabel(text) }
    }
}


/// A small seeded generator, so that a randomized test runs the same every time.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Progress of an activity")
struct ActivityProgressTests {
    @Test func theRateFollowsAStallWithinSecondsAndStartsOverWhenTheAmountGoesBack() {
        var progress = ActivityProgress()
        let start = MonotonicTime(microseconds: 0)
        progress.set(done: 0, total: 0, at: start)
        #expect(progress.rate == nil && progress.percent == nil)
        progress.set(done: 3_000, total: 0, at: start.advanced(byMicroseconds: 1_000_000))
        #expect(progress.rate == 3_000)
        // Three seconds without progress: the rate is halved, as a moving average with a 3 s constant does.
        progress.set(done: 3_000, total: 0, at: start.advanced(byMicroseconds: 4_000_000))
        #expect(progress.rate == 1_500)
        progress.set(done: 10, total: 100, at: start.advanced(byMicroseconds: 5_000_000))
        #expect(progress.rate == nil, "a transfer that started over has no rate until its next report")
        #expect(progress.percent == 10)
        progress.set(done: UInt64.max - 1, total: UInt64.max, at: start.advanced(byMicroseconds: 6_000_000))
        #expect(progress.percent == 99, "huge amounts do not overflow")
    }
}
