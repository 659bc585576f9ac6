import TestSupport
import Testing
@testable import NetworkActivity
import ProgramSupport

/// What the history keeps of the activities that end (`ActivityCoordinator.takeFinished`, `ActivityHistory`,
/// the state file's finished records), with a test clock and no bus.
@Suite("The history of finished activities")
struct ActivityHistoryTests {
    let clock = TestClock()

    private func coordinator() -> ActivityCoordinator {
        var coordinator = ActivityCoordinator(limits: ActivityLimits(), delays: .none, clock: clock)
        coordinator.keepsFinished = true
        return coordinator
    }

    private func outcomes(_ coordinator: inout ActivityCoordinator) -> [String: ActivityOutcome] {
        Dictionary(uniqueKeysWithValues: coordinator.takeFinished().map { ($0.label.text, $0.outcome) })
    }

    private func entry(_ id: UInt32, user: UInt32?, endedAt: UInt64, label: String = "x") throws -> FinishedActivity {
        FinishedActivity(id: ActivityID(rawValue: id), label: try ActivityLabel(label), owner: ":1.\(id)", user: user,
                         startedAt: 1, endedAt: endedAt, outcome: .ended)
    }

    @Test func eachWayOfEndingHasItsOutcome() throws {
        var coordinator = coordinator()
        let ended = try coordinator.begin(label: "ended", caller: ":1.1")
        _ = try coordinator.begin(label: "cancelled", caller: ":1.2")
        let stopped = try coordinator.begin(label: "stopped", caller: ":1.3")
        _ = try coordinator.begin(label: "left", caller: ":1.4")
        let stoppedThenLeft = try coordinator.begin(label: "asked, then left", caller: ":1.5")
        _ = try coordinator.beginTimed(label: "expired", seconds: 5, caller: ":1.6", user: 1000)
        for id in [stopped, stoppedThenLeft] {
            let caller = coordinator.tracker[id]!.owner
            try coordinator.setCancellable(id, true, caller: caller, userOf: oneUser)
            _ = try coordinator.requestCancel(id, caller: ":1.9", serviceUser: 1000, userOf: oneUser)
        }
        try coordinator.end(ended, caller: ":1.1") { nil }
        #expect(coordinator.cancel(caller: ":1.2") == 1)
        try coordinator.end(stopped, caller: ":1.3") { nil }
        #expect(coordinator.callerLeft(":1.4") == 1)
        #expect(coordinator.callerLeft(":1.5") == 1)
        clock.advance(by: .seconds(5))
        coordinator.endTurn()
        #expect(outcomes(&coordinator) == [
            "ended": .ended, "cancelled": .ended, "stopped": .stopped, "left": .left, "asked, then left": .stopped,
            "expired": .expired,
        ])
    }

    @Test func resetSaysResetEvenOfOneAskedToStop() throws {
        var coordinator = coordinator()
        _ = try coordinator.begin(label: "plain", caller: ":1.1")
        let asked = try coordinator.begin(label: "asked", caller: ":1.2")
        try coordinator.setCancellable(asked, true, caller: ":1.2", userOf: oneUser)
        _ = try coordinator.requestCancel(asked, caller: ":1.2", serviceUser: 1000, userOf: oneUser)
        #expect(coordinator.reset() == 2)
        #expect(outcomes(&coordinator) == ["plain": .reset, "asked": .reset])
    }

    @Test func anEntryIsTheActivityAsItWasAtTheEnd() throws {
        var coordinator = coordinator()
        let startedAt = clock.now().wallClock
        let id = try coordinator.beginTimed(label: "backup", seconds: 600, caller: ":1.1", user: 1001)
        try coordinator.setTransfer(id, done: 300, total: 1200, caller: ":1.1", userOf: oneUser)
        clock.advance(by: .seconds(6))
        try coordinator.end(id, caller: ":1.1") { nil }
        let entry = try #require(coordinator.takeFinished().first)
        #expect(entry.id == id && entry.label.text == "backup" && entry.owner == ":1.1")
        #expect(entry.user == 1001, "a timed activity's user is its creator's")
        #expect(entry.startedAt == startedAt && entry.endedAt == startedAt + 6_000_000)
        #expect(entry.deadline == startedAt + 600_000_000)
        #expect(entry.progress.done == 300 && entry.progress.total == 1200 && entry.progress.percent == 25)
        #expect(entry.source == nil && entry.outcome == .ended)
        #expect(!coordinator.hasFinished, "taken once")
    }

    @Test func sourcesEndWithTheOutcomeTheySay() throws {
        var coordinator = coordinator()
        let report = SourceReport(label: try ActivityLabel("Downloading"), owner: ":1.7 /1", user: 1000, percent: 40)
        let done = try coordinator.report(report, of: .transaction(path: "/1"))
        _ = try coordinator.report(report, of: .transaction(path: "/2"))
        coordinator.endSourceWork(.transaction(path: "/1"))
        coordinator.endSourceWork(of: .packagekit, .left)
        let entries = coordinator.takeFinished()
        #expect(entries.map(\.outcome) == [.ended, .left])
        #expect(entries.first?.id == done && entries.allSatisfy { $0.source == .packagekit && $0.user == 1000 })
        #expect(entries.first?.progress.percent == 40)
    }

    @Test func nothingIsKeptUnlessAsked() throws {
        var coordinator = ActivityCoordinator(limits: ActivityLimits(), delays: .none, clock: clock)
        try coordinator.end(try coordinator.begin(label: "a", caller: ":1.1"), caller: ":1.1") { nil }
        #expect(!coordinator.hasFinished)
        #expect(coordinator.takeFinished().isEmpty)
    }

    @Test func eachUserKeepsItsNewestUpToTheLimit() throws {
        var history = ActivityHistory(limitPerUser: 3)
        for index in 1...5 { history.record(try entry(UInt32(index), user: 1000, endedAt: UInt64(index))) }
        history.record(try entry(6, user: 1001, endedAt: 3))
        history.record(try entry(7, user: nil, endedAt: 10))
        #expect(history.entries(ofUser: 1000).map(\.id.rawValue) == [5, 4, 3])
        #expect(history.entries(ofUser: 1000, limit: 2).map(\.id.rawValue) == [5, 4])
        #expect(history.entries(ofUser: 1000, limit: 50).count == 3, "more than are kept is all of them")
        #expect(history.entries(ofUser: 1001).map(\.id.rawValue) == [6])
        #expect(history.entries(ofUser: 1002).isEmpty)
        #expect(history.entries(ofUser: nil).map(\.id.rawValue) == [7, 5, 4, 6, 3], "everyone's, newest first")
        #expect(history.count == 5)
        let cleared = history.clear(user: 1000)
        let clearedAgain = history.clear(user: 1000)
        #expect(cleared == 3 && clearedAgain == 0)
        #expect(history.entries(ofUser: nil).map(\.id.rawValue) == [7, 6])
    }

    @Test func aLimitOfNoneKeepsNothing() throws {
        var history = ActivityHistory(limitPerUser: 0)
        history.record(try entry(1, user: 1000, endedAt: 1))
        #expect(history.isEmpty && !history.isKept)
    }

    @Test func pastTheMostUsersTheStalestIsForgotten() throws {
        var history = ActivityHistory(limitPerUser: 2)
        for user in 0..<UInt32(ActivityHistory.maximumUsers) {
            history.record(try entry(user + 1, user: user, endedAt: UInt64(100 + user)))
        }
        history.record(try entry(999, user: 5000, endedAt: 1000))
        #expect(history.entries(ofUser: 0).isEmpty, "user 0's newest was the oldest")
        #expect(history.entries(ofUser: 1).count == 1 && history.entries(ofUser: 5000).count == 1)
        #expect(history.count == ActivityHistory.maximumUsers)
    }

    @Test func theStateFileKeepsTheHistoryWithinTheLimit() throws {
        var history = ActivityHistory(limitPerUser: 10)
        var full = try entry(1, user: 1000, endedAt: 2, label: "backup — nightly")
        full.processID = 42
        full.application = "org.gnome.DejaDup"
        full.deadline = 99
        full.outcome = .stopped
        full.wasCancellable = true
        full.progress = ActivityProgress(percent: 50, done: 500, total: 1000, rate: 20)
        history.record(full)
        var source = try entry(2, user: 0, endedAt: 60)
        source.source = .packagekit
        source.owner = ":1.7 /" + String(repeating: "p", count: 400)
        history.record(source)
        for index in 3...6 { history.record(try entry(UInt32(index), user: 1000, endedAt: UInt64(index * 10))) }
        var journal = StateJournal()
        journal.appendFile(of: ActivityTracker(), history: history, busID: "bus")
        let read = SavedState(reading: journal.bytes, maximumActivities: 100, historyLimit: 10)
        #expect(read.problem == nil)
        #expect(read.history.entries(ofUser: 1000).last == full)
        let readSource = try #require(read.history.entries(ofUser: 0).first)
        #expect(readSource.source == .packagekit && readSource.owner.utf8.count == StateFileFormat.maximumNameBytes)
        #expect(read.history.count == 6)
        let fewer = SavedState(reading: journal.bytes, maximumActivities: 100, historyLimit: 2)
        #expect(fewer.history.entries(ofUser: 1000).map(\.id.rawValue) == [6, 5], "the newest two")
        let none = SavedState(reading: journal.bytes, maximumActivities: 100, historyLimit: 0)
        #expect(none.history.isEmpty)
    }

    @Test func aDamagedEntryIsNeverMisread() throws {
        var history = ActivityHistory(limitPerUser: 10)
        history.record(try entry(1, user: 1000, endedAt: 1, label: "first"))
        var journal = StateJournal()
        journal.appendFile(of: ActivityTracker(), history: history, busID: "bus")
        let whole = journal.bytes.count
        journal.appendFinished(try entry(2, user: 1000, endedAt: 2, label: "second"))
        var bytes = journal.bytes
        // The outcome's byte of the second record, past the labels and times, becomes an outcome that is not.
        let outcomeOffset = whole + 8 + 1 + 4 + (2 + 4) + (2 + 6) + 8 + 8
        bytes[outcomeOffset] = 77
        let read = SavedState(reading: bytes, maximumActivities: 100, historyLimit: 10)
        #expect(read.problem?.contains("checksum") == true)
        #expect(read.history.entries(ofUser: 1000).map(\.label.text) == ["first"])
    }

    @Test func changesAreAnnouncedAtMostOnceAnInterval() {
        var pacing = ChangePacing(interval: .seconds(1))
        let start = clock.now().monotonic
        var due: [Bool] = []
        due.append(pacing.isDue(at: start))
        pacing.changed()
        due.append(pacing.isDue(at: start))
        pacing.changed()
        pacing.changed()
        due.append(pacing.isDue(at: start + .milliseconds(999)))
        #expect(pacing.nextDeadline == start + .seconds(1))
        due.append(pacing.isDue(at: start + .seconds(1)))
        due.append(pacing.isDue(at: start + .seconds(5)))
        // Nothing changed; the first change at once; not within the interval; both changes in one; nothing more.
        #expect(due == [false, true, false, true, false])
        #expect(pacing.nextDeadline == nil)
    }
}
