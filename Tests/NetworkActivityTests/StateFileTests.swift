import TestSupport
import Testing
@testable import NetworkActivity
import ProgramSupport

/// The state file's bytes (`StateJournal`, `SavedState`) and what a new instance takes over from them
/// (`ActivityTracker.restore`, `ActivityCoordinator.restore`), with no file and no bus.
@Suite("State across restarts")
struct StateFileTests {
    let clock = TestClock()
    static let busID = "0123456789abcdef0123456789abcdef"

    /// A coordinator that saves its changes, with a bound activity with progress, a cancellable one, a timed one
    /// and one that ended.
    private func busyCoordinator() throws -> ActivityCoordinator {
        var coordinator = ActivityCoordinator(limits: ActivityLimits(), delays: .none, clock: clock)
        coordinator.savesChanges = true
        let transfer = try coordinator.begin(label: "backup to the NAS — nightly", caller: ":1.7")
        try coordinator.setTransfer(transfer, done: 400, total: 1000, caller: ":1.7", userOf: oneUser)
        clock.advance(by: .seconds(1))
        try coordinator.setTransfer(transfer, done: 600, total: 1000, caller: ":1.7", userOf: oneUser)
        let cancellable = try coordinator.begin(label: "sync", caller: ":1.8")
        try coordinator.setCancellable(cancellable, true, caller: ":1.8", userOf: oneUser)
        _ = try coordinator.requestCancel(cancellable, caller: ":1.8", serviceUser: 1000, userOf: oneUser)
        let ended = try coordinator.begin(label: "short", caller: ":1.8")
        try coordinator.end(ended, caller: ":1.8") { 1000 }
        _ = try coordinator.beginTimed(label: "lease", seconds: 600, caller: ":1.9", user: 1000)
        try coordinator.setProgress(transfer, percent: 61, caller: ":1.7", userOf: oneUser)
        return coordinator
    }

    private func saved(_ tracker: ActivityTracker) -> [SavedActivity] {
        tracker.all.map { SavedActivity($0, tracker.extras(of: $0.id)) }
    }

    /// What a new instance reads from a whole file of `tracker`.
    private func savedFile(of tracker: ActivityTracker) -> SavedState {
        var journal = StateJournal()
        journal.appendFile(of: tracker, busID: Self.busID)
        return SavedState(reading: journal.bytes, maximumActivities: 100)
    }

    /// The bytes of a file begun empty, then the coordinator's changes appended as the service appends them.
    private func journal(of coordinator: inout ActivityCoordinator) -> [UInt8] {
        var journal = StateJournal()
        journal.appendFile(of: ActivityTracker(), busID: Self.busID)
        coordinator.writeUnsavedChanges(to: &journal)
        return journal.bytes
    }

    @Test func aWholeFileGivesBackEveryActivityAsItWas() throws {
        let coordinator = try busyCoordinator()
        let state = savedFile(of: coordinator.tracker)
        #expect(state.problem == nil)
        #expect(state.busID == Self.busID)
        #expect(state.highestID == 4)
        #expect(state.activities == saved(coordinator.tracker))
        #expect(state.activities.count == 3)
        #expect(state.activities.first?.progress.rate != nil)
        #expect(state.activities[1].isCancelRequested && state.activities[1].cancelReceiver == ":1.8")
        #expect(state.activities[2].lease?.creatorUser == 1000)
    }

    @Test func theJournalOfChangesReplaysToTheLiveActivitiesAndTheHighestID() throws {
        var coordinator = try busyCoordinator()
        let bytes = journal(of: &coordinator)
        #expect(!coordinator.hasUnsavedChanges)
        let state = SavedState(reading: bytes, maximumActivities: 100)
        #expect(state.problem == nil)
        #expect(state.activities == saved(coordinator.tracker))
        #expect(state.highestID == 4, "the ended activity's id counts too")
    }

    @Test func aServiceThatSavesNothingKeepsNoChanges() throws {
        var coordinator = ActivityCoordinator(limits: ActivityLimits(), delays: .none, clock: clock)
        _ = try coordinator.begin(label: "a", caller: ":1.1")
        #expect(!coordinator.hasUnsavedChanges)
    }

    /// The activities after each whole record: the prefixes that read without a problem end on a record's end.
    private func statesAtRecordEnds(_ bytes: [UInt8]) -> [Int: [SavedActivity]] {
        var states: [Int: [SavedActivity]] = [:]
        for length in StateFileFormat.headerSize...bytes.count {
            let state = SavedState(reading: Array(bytes[..<length]), maximumActivities: 100)
            if state.problem == nil { states[length] = state.activities }
        }
        return states
    }

    @Test func aFileCutAnywhereGivesWhatWasWholeBeforeTheCutAndNeverMore() throws {
        var coordinator = try busyCoordinator()
        let bytes = journal(of: &coordinator)
        let recordEnds = statesAtRecordEnds(bytes)
        #expect(recordEnds[bytes.count] == saved(coordinator.tracker))
        #expect(recordEnds.count > 5)
        for length in StateFileFormat.headerSize..<bytes.count where recordEnds[length] == nil {
            let state = SavedState(reading: Array(bytes[..<length]), maximumActivities: 100)
            let lastWhole = try #require(recordEnds.keys.filter { $0 < length }.max())
            #expect(state.problem?.contains("cut short") == true)
            #expect(state.activities == recordEnds[lastWhole], "cut at \(length)")
        }
    }

    @Test func aDamagedByteStopsTheReadingAtItsRecord() throws {
        var coordinator = try busyCoordinator()
        let whole = journal(of: &coordinator)
        let recordEnds = statesAtRecordEnds(whole)
        // Every byte of every record, in turn: what is read is what the records before it say.
        for position in StateFileFormat.headerSize..<whole.count {
            var damaged = whole
            damaged[position] ^= 0x5A
            let state = SavedState(reading: damaged, maximumActivities: 100)
            let recordStart = try #require(recordEnds.keys.filter { $0 <= position }.max())
            #expect(state.problem != nil, "damage at \(position) unnoticed")
            #expect(state.activities == recordEnds[recordStart], "damage at \(position) misread")
        }
    }

    // The cases' type is spelled out: inferred, the sums of array literals took the compiler 13 s.
    @Test(arguments: [
        ([], "empty"),
        (Array("not a state file at all, just text".utf8), "not a netactivity state file"),
        (Array("NACTIVST".utf8) + [2, 0, 0, 0, 1, 2, 3], "newer netactivityd"),
        (Array("NACTIVST".utf8) + [1, 0], "not a netactivity state file"),
    ] as [([UInt8], String)])
    func aFileThatIsNotOneThisVersionReadsGivesNothing(bytes: [UInt8], problem: String) {
        let state = SavedState(reading: bytes, maximumActivities: 100)
        #expect(state.activities.isEmpty)
        #expect(state.busID == nil)
        #expect(state.problem?.contains(problem) == true, "\(state.problem ?? "no problem")")
    }

    @Test func randomBytesAfterAHeaderGiveNothingButTheHeader() {
        var generator = SystemRandomNumberGenerator()
        var journal = StateJournal()
        journal.appendFile(of: ActivityTracker(), busID: Self.busID)
        let bytes = journal.bytes + (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let state = SavedState(reading: bytes, maximumActivities: 100)
        #expect(state.busID == Self.busID)
        #expect(state.activities.isEmpty)
        #expect(state.problem != nil)
    }

    @Test func activitiesBeyondTheLimitAreIgnoredAndSaidSo() throws {
        var tracker = ActivityTracker()
        for index in 0..<10 { _ = try tracker.begin(label: ActivityLabel("a\(index)"), caller: ":1.1", at: clock.now()) }
        var journal = StateJournal()
        journal.appendFile(of: tracker, busID: Self.busID)
        let state = SavedState(reading: journal.bytes, maximumActivities: 4)
        #expect(state.activities.count == 4)
        #expect(state.activities.allSatisfy { (1...10).contains($0.id.rawValue) })
        #expect(state.problem?.contains("6 activities beyond the limit of 4") == true)
    }

    // MARK: Taking over

    @Test func aNewInstanceTakesOverWhatIsOnTheBusAndFollowsItsOwners() throws {
        let old = try busyCoordinator()
        let state = savedFile(of: old.tracker)
        clock.advance(by: .seconds(5))

        var new = ActivityCoordinator(limits: ActivityLimits(), delays: .standard, clock: clock)
        let present: Set<String> = [":1.7", ":1.8"]
        #expect(new.restore(state, isOnBus: { present.contains($0) }) == 3)
        #expect(saved(new.tracker) == saved(old.tracker))
        #expect(new.isVisible, "activities that were showing show again at once")
        #expect(new.takeNotifications().contains(.visibilityChanged(true)))
        #expect(try new.begin(label: "next", caller: ":1.10").rawValue == 5, "ids go on above every earlier one")
        // The owner's End works, and its departure ends the rest.
        try new.end(ActivityID(rawValue: 1), caller: ":1.7") { 1000 }
        #expect(new.callerLeft(":1.8") == 1)
        #expect(new.tracker.all.map(\.id.rawValue) == [4, 5])
    }

    @Test func ownersThatLeftLoseTheirBoundActivitiesButNotTheirLeases() throws {
        let old = try busyCoordinator()
        let state = savedFile(of: old.tracker)
        var new = ActivityCoordinator(limits: ActivityLimits(), delays: .none, clock: clock)
        #expect(new.restore(state, isOnBus: { $0 == ":1.7" }) == 2)
        #expect(new.tracker.all.map(\.id.rawValue) == [1, 4])
    }

    @Test func onAnotherBusOnlyLeasesAreTakenAndNoNameThereOwnsThem() throws {
        let old = try busyCoordinator()
        let state = savedFile(of: old.tracker)
        var new = ActivityCoordinator(limits: ActivityLimits(), delays: .none, clock: clock)
        #expect(new.restore(state, isOnBus: nil) == 1)
        let lease = try #require(new.tracker.all.first)
        #expect(lease.id.rawValue == 4 && lease.owner == ":1.9")
        // A program that the new bus named :1.9 neither owns it nor cancels it; its creator's user still may end it.
        _ = try new.begin(label: "other", caller: ":1.9")
        #expect(new.cancel(caller: ":1.9") == 1)
        #expect(throws: ActivityError.notOwner(lease.id)) { try new.end(lease.id, caller: ":1.9") { 2000 } }
        try new.end(lease.id, caller: ":1.20") { 1000 }
        #expect(new.tracker.count == 0)
    }

    @Test func leasesWhoseDeadlinePassedAreNotTakenAndTheRestEndOnTime() throws {
        var old = ActivityCoordinator(limits: ActivityLimits(), delays: .none, clock: clock)
        _ = try old.beginTimed(label: "short", seconds: 5, caller: ":1.1", user: 1000)
        _ = try old.beginTimed(label: "long", seconds: 60, caller: ":1.1", user: 1000)
        let state = savedFile(of: old.tracker)
        clock.advance(by: .seconds(10))
        var new = ActivityCoordinator(limits: ActivityLimits(), delays: .none, clock: clock)
        #expect(new.restore(state, isOnBus: nil) == 1)
        clock.advance(by: .seconds(49))
        new.endTurn()
        #expect(new.tracker.count == 1)
        clock.advance(by: .seconds(1))
        new.endTurn()
        #expect(new.tracker.count == 0)
    }

    @Test func restoredActivitiesCountAgainstTheirUsersQuota() throws {
        let limits = ActivityLimits(perCaller: 100, perUser: 3, total: 100, maximumTimeoutSeconds: 3600)
        var old = ActivityCoordinator(limits: limits, delays: .none, clock: clock)
        _ = try old.beginTimed(label: "a", seconds: 60, caller: ":1.1", user: 1000)
        _ = try old.beginTimed(label: "b", seconds: 60, caller: ":1.1", user: 1000)
        _ = try old.begin(label: "c", caller: ":1.1")
        let state = savedFile(of: old.tracker)
        var new = ActivityCoordinator(limits: limits, delays: .none, clock: clock)
        #expect(new.restore(state, isOnBus: { _ in true }) == 3)
        #expect(throws: ActivityError.userLimitExceeded(limit: 3)) { _ = try new.begin(label: "d", caller: ":1.2") }
        #expect(new.cancel(caller: ":1.1") == 3)
        #expect(new.tracker.count(ofUser: 1000) == 0)
    }

    @Test func aCancelReceiverThatLeftIsNotTaken() throws {
        let old = try busyCoordinator()
        let state = savedFile(of: old.tracker)
        var new = ActivityCoordinator(limits: ActivityLimits(), delays: .none, clock: clock)
        _ = new.restore(state, isOnBus: { $0 == ":1.7" })
        #expect(new.tracker.extras(of: ActivityID(rawValue: 2)).cancelReceiver == nil)
    }
}
