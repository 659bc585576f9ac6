import NetworkActivity
import ProgramSupport
import Testing

/// Data plans as rules: their periods on the calendar, their bounds, and their file.
@Suite("Data plans: periods, bounds and their file")
struct DataPlanRulesTests {
    static func day(_ text: String) -> UsageDay { UsageDay(text)! }

    @Test(arguments: [
        // A month from its 5th: before the 5th, the period began last month.
        (DataPlan.Period.month, 5, "2026-12-03", "2026-11-05", "2026-12-05"),
        (.month, 5, "2026-12-05", "2026-12-05", "2027-01-05"),
        (.month, 1, "2026-12-31", "2026-12-01", "2027-01-01"),
        // A month with fewer days begins on its last.
        (.month, 31, "2027-02-28", "2027-02-28", "2027-03-31"),
        (.month, 31, "2027-02-27", "2027-01-31", "2027-02-28"),
        (.month, 30, "2028-02-29", "2028-02-29", "2028-03-30"),
        // A week from Monday (2026-11-30 was one), and from Sunday.
        (.week, 1, "2026-12-03", "2026-11-30", "2026-12-07"),
        (.week, 7, "2026-12-03", "2026-11-29", "2026-12-06"),
        (.week, 7, "2026-12-06", "2026-12-06", "2026-12-13"),
        (.day, 1, "2026-12-31", "2026-12-31", "2027-01-01"),
    ])
    func aPeriodBeginsOnItsDay(period: DataPlan.Period, starts: Int, today: String, first: String, resets: String)
        throws {
        let plan = try DataPlan(cap: 10_000_000_000, period: period, starts: starts)
        let found = plan.period(containing: Self.day(today))
        #expect(found.first == Self.day(first) && found.resets == Self.day(resets), "\(found)")
    }

    @Test func capsStartsAndWarningsOutOfRangeAreRefused() {
        #expect(throws: DataPlanError.invalidCap(999_999)) { try DataPlan(cap: 999_999, period: .day) }
        #expect(throws: DataPlanError.invalidCap(DataPlan.largestCap + 1)) {
            try DataPlan(cap: DataPlan.largestCap + 1, period: .month)
        }
        #expect(throws: DataPlanError.invalidStart(8, .week)) { try DataPlan(cap: 1_000_000, period: .week, starts: 8) }
        #expect(throws: DataPlanError.invalidStart(0, .month)) { try DataPlan(cap: 1_000_000, period: .month, starts: 0) }
        #expect(throws: DataPlanError.invalidStart(2, .day)) { try DataPlan(cap: 1_000_000, period: .day, starts: 2) }
        #expect(throws: DataPlanError.invalidWarning(101)) {
            try DataPlan(cap: 1_000_000, period: .day, warnPercent: 101)
        }
    }

    @Test func theWarningIsItsPercentOfTheCapAndAPlanIsUsedUpWhenNoPacketFits() throws {
        let plan = try DataPlan(cap: 10_000_000_000, period: .month)
        #expect(plan.warnsAt == 8_000_000_000)
        #expect(try DataPlan(cap: 1_000_099, period: .day, warnPercent: 50).warnsAt == 500_049)
        #expect(!plan.isUsedUp(10_000_000_000 - 65_536) && plan.isUsedUp(10_000_000_000 - 65_535)
                && plan.isUsedUp(10_000_000_001))
    }

    /// The kernel wakes the service below the next level's allowance: the warning's while below it (what is left
    /// at the warning, and one more), then used up's (a full packet), then never.
    @Test func theNextLevelIsTheWarningThenUsedUpThenNone() throws {
        let plan = try DataPlan(cap: 10_000_000_000, period: .month)
        #expect(plan.nextLevel(afterUsing: 0) == 2_000_000_001)
        #expect(plan.nextLevel(afterUsing: 7_999_999_999) == 2_000_000_001)
        #expect(plan.nextLevel(afterUsing: 8_000_000_000) == 65_536)
        #expect(plan.nextLevel(afterUsing: 10_000_000_000 - 65_536) == 65_536)
        #expect(plan.nextLevel(afterUsing: 10_000_000_000 - 65_535) == nil)
    }

    @Test func badNetworksAndOneTooManyAreRefusedAndChangeNothing() throws {
        var plans = DataPlans()
        let plan = try DataPlan(cap: 1_000_000, period: .day)
        for network in ["", "tab\there", String(repeating: "n", count: 65)] {
            #expect(throws: DataPlanError.self) { try plans.set(plan, for: network) }
        }
        for index in 0..<DataPlans.maximumCount { try plans.set(plan, for: "network \(index)") }
        let full = plans
        #expect(throws: DataPlanError.tooManyPlans(limit: DataPlans.maximumCount)) {
            try plans.set(plan, for: "one more")
        }
        #expect(plans == full)
        try plans.set(try DataPlan(cap: 2_000_000, period: .week), for: "network 0")
        #expect(plans["network 0"]?.cap == 2_000_000 && plans.all.count == DataPlans.maximumCount)
    }

    @Test func theFileReadsBackWholeAndADamagedOneIsNotBelieved() throws {
        var plans = DataPlans()
        try plans.set(try DataPlan(cap: 10_000_000_000, period: .month, starts: 5, warnPercent: 90),
                      for: "Phone hotspot")
        try plans.set(try DataPlan(cap: 500_000_000, period: .day), for: "eth0")
        let text = DataPlansFileFormat.encode(plans)
        #expect(DataPlansFileFormat.decode(text) == plans)
        #expect(text.contains("Phone hotspot\t10000000000\tmonth\t5\t90\t-\n"))
        for damaged in [text.replacingOccurrences(of: "month", with: "year"),
                        text.replacingOccurrences(of: "netactivity plans 2", with: "netactivity plans 3"),
                        text.replacingOccurrences(of: "netactivity plans 2", with: "netactivity plans 1"),
                        text + "eth0\t500000000\tday\t1\t80\t-\n", String(text.dropLast()),
                        text.replacingOccurrences(of: "\t5\t", with: "\t32\t")] {
            #expect(DataPlansFileFormat.decode(damaged) == nil, "\(damaged)")
        }
    }

    /// A resumed plan holds nothing until its period ends; a new plan, or the plan's next period, holds again; the
    /// file keeps the resumption, and a file of the first version reads as before.
    @Test func aResumedPlanLastsUntilItsPeriodEndsAndIsKept() throws {
        var plans = DataPlans()
        let dayOne = try #require(UsageDay("2026-12-03"))
        #expect(throws: DataPlanError.noPlan("Phone hotspot")) { try plans.resume("Phone hotspot", on: dayOne) }
        try plans.set(try DataPlan(cap: 10_000_000_000, period: .month, starts: 5), for: "Phone hotspot")
        try plans.resume("Phone hotspot", on: dayOne)
        #expect(plans.isResumed("Phone hotspot", on: try #require(UsageDay("2026-12-04"))))
        let text = DataPlansFileFormat.encode(plans)
        #expect(text == "netactivity plans 2\nPhone hotspot\t10000000000\tmonth\t5\t80\t2026-11-05\n")
        #expect(DataPlansFileFormat.decode(text) == plans)
        #expect(DataPlansFileFormat.decode("netactivity plans 2\nPhone hotspot\t10000000000\tmonth\t5\t80\t2026-11-06\n")
                == nil, "a resumption on a day no period begins is damage")
        let nextPeriod = try #require(UsageDay("2026-12-05"))
        #expect(!plans.isResumed("Phone hotspot", on: nextPeriod))
        #expect(plans.forgetEndedResumptions(on: nextPeriod) && plans.resumed.isEmpty)
        try plans.resume("Phone hotspot", on: nextPeriod)
        try plans.set(try DataPlan(cap: 20_000_000_000, period: .month, starts: 5), for: "Phone hotspot")
        #expect(!plans.isResumed("Phone hotspot", on: nextPeriod), "a new plan holds at once")
        var first = DataPlans()
        try first.set(try DataPlan(cap: 10_000_000_000, period: .month, starts: 5), for: "Phone hotspot")
        #expect(DataPlansFileFormat.decode("netactivity plans 1\nPhone hotspot\t10000000000\tmonth\t5\t80\n") == first)
    }
}
