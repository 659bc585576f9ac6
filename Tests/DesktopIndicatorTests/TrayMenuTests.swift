import DesktopIndicator
import ProgramSupport
import Testing

@Suite struct TrayMenuTests {
    @Test func aHeaderTheActivitiesWithTheirAgesThenTheActions() {
        let menu = TrayMenu(activities: [("backup", .seconds(185)), ("", .seconds(4))], mayEndAll: true)
        #expect(menu.rows == [
            .header("2 active"), .activity("backup — 3 min"), .activity("(no label) — 4 s"), .separator,
            .showDetails, .endAll,
        ])
    }

    @Test func endAllOnlyWhereTheUserMayAndThereIsSomethingToEnd() {
        #expect(!TrayMenu(activities: [("mail", .zero)], mayEndAll: false).rows.contains(.endAll))
        #expect(TrayMenu(activities: [], mayEndAll: true).rows == [
            .header("No network activity"), .separator, .showDetails,
        ])
    }

    @Test func longListsAreCountedPastTwenty() {
        let many = (1...50).map { (label: "a\($0)", age: Duration.seconds(1)) }
        let rows = TrayMenu(activities: many, mayEndAll: false).rows
        #expect(rows.count == 1 + 20 + 1 + 2)
        #expect(rows[21] == .activity("and 30 more"))
    }

    @Test func longLabelsAreCutAsInTheTooltip() {
        let label = String(repeating: "x", count: 60)
        let rows = TrayMenu(activities: [(label, .seconds(61))], mayEndAll: false).rows
        #expect(rows[1] == .activity(String(repeating: "x", count: 39) + "… — 1 min"))
    }
}

@Suite struct ElapsedTimeTests {
    @Test func coarseToTheMinute() {
        #expect(ElapsedTime.coarse(.milliseconds(900)) == "0 s")
        #expect(ElapsedTime.coarse(.seconds(59)) == "59 s")
        #expect(ElapsedTime.coarse(.seconds(12 * 60 + 59)) == "12 min")
        #expect(ElapsedTime.coarse(.seconds(2 * 3600)) == "2 h")
        #expect(ElapsedTime.coarse(.seconds(2 * 3600 + 5 * 60)) == "2 h 5 min")
        #expect(ElapsedTime.coarse(.seconds(-3)) == "0 s", "a clock set back gives no negative age")
    }

    @Test func preciseToTheSecond() {
        #expect(ElapsedTime.precise(.milliseconds(420)) == "0.4 s")
        #expect(ElapsedTime.precise(.milliseconds(9_950)) == "9.9 s")
        #expect(ElapsedTime.precise(.seconds(12)) == "12 s")
        #expect(ElapsedTime.precise(.seconds(192)) == "3 min 12 s")
        #expect(ElapsedTime.precise(.seconds(180)) == "3 min")
        #expect(ElapsedTime.precise(.seconds(3 * 3600 + 60)) == "3 h 1 min")
    }
}

@Suite struct FinishedActivitiesTests {
    @Test func oneIsNamedInTheSummary() {
        let one = FinishedActivities([("backup", .seconds(12 * 60))])
        #expect(one.summary == "backup finished after 12 min")
        #expect(one.body == "")
    }

    @Test func severalAreCountedWithALineEach() {
        let several = FinishedActivities([("backup", .seconds(720)), ("", .seconds(30))])
        #expect(several.summary == "2 activities finished")
        #expect(several.body == "backup finished after 12 min\n(no label) finished after 30 s")
    }
}

@Suite struct TrayPresenceTests {
    @Test func onceJoinedTheItemStaysAtLeastTheMinimum() {
        var presence = TrayPresence()
        let start = MonotonicTime(microseconds: 5_000_000)
        #expect(presence.update(wantsInTray: false, at: start) == false)
        #expect(presence.update(wantsInTray: true, at: start) == true)
        #expect(presence.earliestLeave() == start + TrayPresence.minimumStay)
        #expect(presence.update(wantsInTray: false, at: start + .milliseconds(300)) == true, "too soon to leave")
        #expect(presence.update(wantsInTray: false, at: start + .seconds(1)) == false)
        #expect(presence.earliestLeave() == nil)
    }

    @Test func theStayCountsFromTheJoinNotFromLaterChanges() {
        var presence = TrayPresence()
        let start = MonotonicTime(microseconds: 5_000_000)
        _ = presence.update(wantsInTray: true, at: start)
        _ = presence.update(wantsInTray: true, at: start + .milliseconds(900))
        #expect(presence.update(wantsInTray: false, at: start + .milliseconds(1100)) == false)
        #expect(presence.update(wantsInTray: true, at: start + .milliseconds(1200)) == true, "it may join again")
        #expect(presence.earliestLeave() == start + .milliseconds(2200))
    }

    @Test func itLeavesNoSoonerThanItsCallerSaysEvenAfterTheMinimumStay() {
        var presence = TrayPresence()
        let start = MonotonicTime(microseconds: 5_000_000)
        _ = presence.update(wantsInTray: true, at: start)
        let settled = start + .milliseconds(1400)
        #expect(presence.earliestLeave(notBefore: settled) == settled)
        #expect(presence.earliestLeave(notBefore: start + .milliseconds(200)) == start + TrayPresence.minimumStay,
                "an earlier time does not shorten the stay")
        #expect(presence.update(wantsInTray: false, at: start + .milliseconds(1100), notBefore: settled) == true,
                "the stay is over but not the settling")
        #expect(presence.update(wantsInTray: false, at: settled, notBefore: settled) == false)
    }
}
