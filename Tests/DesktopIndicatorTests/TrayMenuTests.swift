import NetworkActivityInterface
import DesktopIndicator
import NetworkActivityClient
import ProgramSupport
import Testing

@Suite struct TrayMenuTests {
    static let now: UInt64 = 1_800_000_000_000_000

    @Test func aHeaderTheActivitiesWithProgressAndAgesThenTheActions() {
        let menu = TrayMenu(activities: [
            .example(id: 4, label: "backup", startedAt: Self.now - 185_000_000, percent: 45, rate: 3_200_000),
            .example(id: 9, label: "", startedAt: Self.now - 4_000_000),
        ], at: Self.now, mayEndAll: true)
        #expect(menu.rows == [
            .header("2 active"), .activity(ActivityID(rawValue: 4), "backup — 45 % · 3.2 MB/s — 3 min"),
            .activity(ActivityID(rawValue: 9), "(no label) — 4 s"), .separator, .showDetails, .endAll,
        ])
    }

    @Test func aCancellableActivityHasAStopRowThatReadsStoppingOnceAsked() {
        let backup = ActivityStatus.example(id: 4, label: "backup", startedAt: Self.now, isCancellable: true)
        var asked = backup
        asked.isCancelRequested = true
        #expect(TrayMenu(activities: [backup], at: Self.now, mayEndAll: false).rows[2]
            == .stop(ActivityID(rawValue: 4), "Stop backup"))
        #expect(TrayMenu(activities: [asked], at: Self.now, mayEndAll: false).rows[2]
            == .stopping(ActivityID(rawValue: 4), "Stopping backup…"))
    }

    @Test func endAllOnlyWhereTheUserMayAndThereIsSomethingToEnd() {
        #expect(!TrayMenu(activities: [.example(label: "mail")], at: Self.now, mayEndAll: false).rows.contains(.endAll))
        #expect(TrayMenu(activities: [], at: Self.now, mayEndAll: true).rows == [
            .header("No network activity"), .separator, .showDetails,
        ])
    }

    @Test func longListsAreCountedPastTwenty() {
        let many = (1...50).map { ActivityStatus.example(id: UInt32($0), label: "a\($0)", isCancellable: $0 == 30) }
        let rows = TrayMenu(activities: many, at: Self.now, mayEndAll: false).rows
        #expect(rows.count == 1 + 20 + 1 + 2)
        #expect(rows[21] == .more("and 30 more"))
    }

    @Test func longLabelsAreCutAsInTheTooltip() {
        let label = String(repeating: "x", count: 60)
        let rows = TrayMenu(activities: [.example(label: label, startedAt: Self.now - 61_000_000)], at: Self.now,
                            mayEndAll: false).rows
        #expect(rows[1] == .activity(ActivityID(rawValue: 1), String(repeating: "x", count: 39) + "… — 1 min"))
    }
}

@Suite struct ActivityLineTests {
    @Test func progressTellsWhatIsKnown() {
        #expect(ActivityStatus.example(label: "a").progressText == "")
        #expect(ActivityStatus.example(label: "a", percent: 45).progressText == "45 %")
        #expect(ActivityStatus.example(label: "a", percent: 45, done: 900, rate: 3_000_000).progressText
            == "45 % · 3.0 MB/s", "the percent says more than the amount")
        #expect(ActivityStatus.example(label: "a", done: 1_234_567).progressText == "1.2 MB")
        #expect(ActivityStatus.example(label: "a", done: 1_234_567, rate: 999).progressText == "1.2 MB · 999 B/s")
    }

    @Test func tooltipLinesStopAtFiveAndCountTheRest() {
        let seven = (1...7).map { ActivityStatus.example(id: UInt32($0), label: "a\($0)", percent: UInt32($0)) }
        #expect(ActivityStatus.summaryLines(seven) == [
            "a1 — 1 %", "a2 — 2 %", "a3 — 3 %", "a4 — 4 %", "a5 — 5 %", "and 2 more",
        ])
    }

    @Test func bytesInPowersOfAThousand() {
        #expect(ByteAmount.text(999) == "999 B")
        #expect(ByteAmount.text(1000) == "1.0 kB")
        #expect(ByteAmount.text(3_249_999) == "3.2 MB")
        #expect(ByteAmount.text(999_960_000) == "1.0 GB", "999.96 MB rounds into the next unit")
        #expect(ByteAmount.rate(3_200_000) == "3.2 MB/s")
    }
}

@Suite struct OverallProgressTests {
    @Test func weightedByBytesWhenEveryActivityHasATotal() {
        let big = ActivityStatus.example(id: 1, label: "big", percent: 10, done: 100, total: 1000)
        let small = ActivityStatus.example(id: 2, label: "small", percent: 90, done: 90, total: 100)
        #expect(OverallProgress.percent(of: [big, small]) == 17, "190 of 1100 bytes, rounded down")
    }

    @Test func otherwiseTheMeanOfTheKnownPercents() {
        let activities: [ActivityStatus] = [
            .example(id: 1, label: "a", percent: 40, done: 40, total: 100), .example(id: 2, label: "b", percent: 51),
            .example(id: 3, label: "c"),
        ]
        #expect(OverallProgress.percent(of: activities) == 45)
    }

    @Test func absentWhenNothingIsKnown() {
        #expect(OverallProgress.percent(of: []) == nil)
        #expect(OverallProgress.percent(of: [.example(label: "a", done: 5)]) == nil)
    }

    @Test func neverPastAHundred() {
        #expect(OverallProgress.percent(of: [.example(label: "a", done: 500, total: 100)]) == 100)
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
    static let now = TrayMenuTests.now

    @Test func oneIsNamedInTheSummary() {
        let one = FinishedActivities([.example(label: "backup", startedAt: Self.now - 720_000_000)], endedAt: Self.now)
        #expect(one.summary == "backup finished after 12 min")
        #expect(one.body == "")
    }

    @Test func theAmountMovedIsToldWhenKnown() {
        let backup = ActivityStatus.example(label: "backup", startedAt: Self.now - 360_000_000, percent: 100,
                                            done: 1_200_000_000, total: 1_200_000_000)
        #expect(FinishedActivities([backup], endedAt: Self.now).summary == "backup finished: 1.2 GB in 6 min")
    }

    @Test func severalAreCountedWithALineEach() {
        let several = FinishedActivities([
            .example(id: 1, label: "backup", startedAt: Self.now - 720_000_000),
            .example(id: 2, label: "", startedAt: Self.now - 30_000_000),
        ], endedAt: Self.now)
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

extension ActivityStatus {
    /// An activity of this process with what a test gives.
    static func example(
        id: UInt32 = 1, label: String, startedAt: UInt64 = TrayMenuTests.now, isCancellable: Bool = false,
        percent: UInt32? = nil, done: UInt64? = nil, total: UInt64? = nil, rate: UInt64? = nil
    ) -> ActivityStatus {
        ActivityStatus(ActivityDetails(id: id, label: label, owner: ":1.7", startedAt: startedAt, user: 1000,
                                       isCancellable: isCancellable, percent: percent, done: done, total: total,
                                       rate: rate))
    }
}
