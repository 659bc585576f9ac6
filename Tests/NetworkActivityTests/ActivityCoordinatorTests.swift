import TestSupport
import Testing
import NetworkActivity
import ProgramSupport

@Suite("Activity coordinator")
struct ActivityCoordinatorTests {
    let clock = TestClock()

    private func coordinator(_ delays: VisibilityDelays = .none) -> ActivityCoordinator {
        ActivityCoordinator(limits: ActivityLimits(), delays: delays, clock: clock)
    }

    private func visibilitySignals(_ notifications: [ActivityNotification]) -> [Bool] {
        notifications.compactMap { if case .visibilityChanged(let visible) = $0 { visible } else { nil } }
    }

    /// Runs the loop as the daemon does: end the turn, then sleep until the next deadline, until nothing is due
    /// before `limit`.
    private func runTimers(_ coordinator: inout ActivityCoordinator, until limit: MonotonicTime)
        -> [ActivityNotification]
    {
        var notifications: [ActivityNotification] = []
        coordinator.endTurn()
        notifications += coordinator.takeNotifications()
        while let deadline = coordinator.nextDeadline, deadline <= limit {
            clock.advance(to: max(deadline, clock.now().monotonic))
            coordinator.endTurn()
            notifications += coordinator.takeNotifications()
        }
        clock.advance(to: max(limit, clock.now().monotonic))
        return notifications
    }

    @Test(arguments: [VisibilityDelays.none, .standard])
    func theSeedScenarioShowsOnceAndHidesOnce(delays: VisibilityDelays) throws {
        var coordinator = coordinator(delays)
        var notifications: [ActivityNotification] = []
        func step(_ action: (inout ActivityCoordinator) throws -> Void) rethrows {
            try action(&coordinator)
            notifications += coordinator.takeNotifications()
            notifications += runTimers(&coordinator, until: clock.now().monotonic + .seconds(1))
        }
        var a = ActivityID(rawValue: 0), b = a, c = a
        try step { a = try $0.begin(label: "A", caller: ":1.1") }
        try step { b = try $0.begin(label: "B", caller: ":1.2") }
        try step { try $0.end(b, caller: ":1.2") { nil } }
        try step { c = try $0.begin(label: "C", caller: ":1.3") }
        try step { try $0.end(a, caller: ":1.1") { nil } }
        try step { try $0.end(c, caller: ":1.3") { nil } }
        #expect(visibilitySignals(notifications) == [true, false])
    }

    @Test func aChangeOfVisibilityCarriesTheCountInOneSignal() throws {
        var coordinator = coordinator()
        _ = try coordinator.begin(label: "", caller: ":1.1")
        #expect(coordinator.takeNotifications() == [
            .visibilityChanged(true), .propertiesChanged(visible: true, activeCount: 1),
        ])
    }

    @Test func countChangesAloneAreCoalescedToOnePerIntervalEndingWithTheCurrentValue() throws {
        var coordinator = coordinator()
        _ = try coordinator.begin(label: "", caller: ":1.1")
        _ = coordinator.takeCountNotifications()
        for _ in 0..<10 { _ = try coordinator.begin(label: "", caller: ":1.1") }
        coordinator.endTurn()
        #expect(coordinator.takeCountNotifications().isEmpty)
        let due = try #require(coordinator.nextDeadline)
        #expect(due == clock.now().monotonic + ActivityCoordinator.countAnnouncementInterval)
        clock.advance(to: due)
        _ = try coordinator.begin(label: "", caller: ":1.1")
        coordinator.endTurn()
        #expect(coordinator.takeCountNotifications() == [.propertiesChanged(visible: nil, activeCount: 12)])
        #expect(coordinator.nextDeadline == nil)
    }

    /// A listener that reads the activities at each announcement must hear of one that ended, even when another
    /// began meanwhile and the count is the one it was last told.
    @Test func aChangeThatLeavesTheCountAsAnnouncedIsAnnouncedToo() throws {
        var coordinator = coordinator()
        _ = try coordinator.begin(label: "", caller: ":1.1")
        _ = coordinator.takeCountNotifications()
        let quick = try coordinator.begin(label: "quick", caller: ":1.2")
        try coordinator.end(quick, caller: ":1.2") { nil }
        coordinator.endTurn()
        #expect(coordinator.takeCountNotifications().isEmpty)
        let due = try #require(coordinator.nextDeadline)
        clock.advance(to: due)
        coordinator.endTurn()
        #expect(coordinator.takeCountNotifications() == [.propertiesChanged(visible: nil, activeCount: 1)])
        #expect(coordinator.nextDeadline == nil)
    }

    @Test func aTimedActivityHidesTheIndicatorAtItsDeadline() throws {
        var coordinator = coordinator()
        _ = try coordinator.beginTimed(label: "sync", seconds: 3, caller: ":1.1", user: 1000)
        #expect(visibilitySignals(coordinator.takeNotifications()) == [true])
        let notifications = runTimers(&coordinator, until: clock.now().monotonic + .seconds(5))
        #expect(visibilitySignals(notifications) == [false])
        #expect(coordinator.activeCount == 0)
    }

    @Test func aCallerLeavingHidesTheIndicatorWhenItWasTheLast() throws {
        var coordinator = coordinator()
        _ = try coordinator.begin(label: "", caller: ":1.1")
        _ = try coordinator.begin(label: "", caller: ":1.2")
        _ = coordinator.takeNotifications()
        #expect(coordinator.callerLeft(":1.1") == 1)
        #expect(visibilitySignals(coordinator.takeNotifications()).isEmpty)
        #expect(coordinator.callerLeft(":1.2") == 1)
        #expect(visibilitySignals(coordinator.takeNotifications()) == [false])
    }

    @Test func refusedRequestsAnnounceNothing() throws {
        var coordinator = coordinator()
        #expect(throws: ActivityError.self) { try coordinator.begin(label: "bad\n", caller: ":1.1") }
        #expect(throws: ActivityError.self) { try coordinator.end(ActivityID(rawValue: 1), caller: ":1.1") { nil } }
        coordinator.endTurn()
        #expect(coordinator.takeNotifications().isEmpty)
        #expect(coordinator.activeCount == 0)
    }

    @Test func shuttingDownWhileVisibleHidesAtOnce() throws {
        var coordinator = coordinator(.standard)
        _ = try coordinator.begin(label: "", caller: ":1.1")
        _ = runTimers(&coordinator, until: clock.now().monotonic + .seconds(1))
        #expect(coordinator.isVisible)
        coordinator.shutDown()
        #expect(visibilitySignals(coordinator.takeNotifications()) == [false])
        coordinator.shutDown()
        #expect(coordinator.takeNotifications().isEmpty)
    }
}

extension ActivityCoordinator {
    /// What listeners must be told, without `ActivitiesChanged`, whose own interval the endpoint's tests follow.
    mutating func takeCountNotifications() -> [ActivityNotification] {
        takeNotifications().filter {
            if case .activitiesChanged = $0 { false } else { true }
        }
    }
}
