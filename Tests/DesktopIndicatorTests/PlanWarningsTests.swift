import DesktopIndicator
import NetworkActivityClient
import NetworkActivityInterface
import Testing

/// The data plans' notifications, from `GetPlans`' records, with no bus: once a level a period.
@Suite struct PlanWarningsTests {
    static func plan(_ network: String = "Phone hotspot", used: UInt64, level: PlanRecord.Level?,
                     since: String = "2026-11-05", resets: String = "2026-12-05") -> NetworkDataPlan {
        NetworkDataPlan(PlanRecord(network: network, settings: PlanSettings(cap: 10_000_000_000, period: "month"),
                                   used: used, since: since, resets: resets, level: level))
    }

    @Test func eachLevelIsToldOnceAPeriod() {
        var warnings = PlanWarnings()
        #expect(warnings.due([Self.plan(used: 1_000_000_000, level: .normal)]).isEmpty)
        let warning = warnings.due([Self.plan(used: 8_000_000_000, level: .warning)])
        #expect(warning == [PlanWarnings.Warning(network: "Phone hotspot", level: .warning, used: 8_000_000_000,
                                                 cap: 10_000_000_000, resets: "2026-12-05")])
        #expect(warning.first?.summary == "Data plan")
        #expect(warning.first?.body == "Phone hotspot: 8.0 GB of 10.0 GB used, resets on 5 December")
        #expect(warnings.due([Self.plan(used: 9_000_000_000, level: .warning)]).isEmpty, "once a level")
        let usedUp = warnings.due([Self.plan(used: 10_000_000_000, level: .usedUp)])
        #expect(usedUp.map(\.level) == [.usedUp] && usedUp.first?.summary == "Data plan used up", "\(usedUp)")
        #expect(warnings.due([Self.plan(used: 10_000_000_000, level: .usedUp)]).isEmpty)
        // The next period tells again, and what was shown of the last is forgotten.
        let next = warnings.due([Self.plan(used: 8_500_000_000, level: .warning, since: "2026-12-05",
                                           resets: "2027-01-05")])
        #expect(next.map(\.level) == [.warning] && next.first?.body.hasSuffix("resets on 5 January") == true)
        #expect(warnings.shown == ["2026-12-05 Phone hotspot warning"])
    }

    /// A plan found used up (the tray started late, or one packet took it past both) is told of as used up alone;
    /// a service that says no level tells nothing; each network is its own.
    @Test func aPlanFoundUsedUpIsToldOfOnceAndEachNetworkIsItsOwn() {
        var warnings = PlanWarnings(shown: ["2026-11-05 Office warning"])
        let due = warnings.due([Self.plan(used: 10_000_000_000, level: .usedUp),
                                Self.plan("Office", used: 9_000_000_000, level: .warning),
                                Self.plan("Old", used: 9_000_000_000, level: nil)])
        #expect(due.map(\.network) == ["Phone hotspot"] && due.map(\.level) == [.usedUp], "\(due)")
        #expect(warnings.due([Self.plan(used: 10_000_000_000, level: .usedUp)]).isEmpty)
    }
}
