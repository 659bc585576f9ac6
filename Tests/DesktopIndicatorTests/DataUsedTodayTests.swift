import DesktopIndicator
import NetworkActivityClient
import NetworkActivityInterface
import Testing

/// "Used today" and the warning on metered connections, from `GetUsage`'s rows, with no bus.
@Suite struct DataUsedTodayTests {
    static func row(_ app: String, _ bytes: UInt64, network: String = "Phone hotspot", metered: Bool = true,
                    user: UInt32 = 1000, machines: Bool = false, day: String = "2026-11-28") -> AppDataUsage {
        AppDataUsage(UsageRecord(application: app, label: app.capitalized, user: user, network: network,
                                 isMetered: metered, received: bytes, sent: 0, day: day,
                                 privateTo: machines ? nil : user))
    }

    @Test func theDaysTotalItsMeteredPartAndTheFiveAppsThatUsedMost() {
        let rows = (1...7).map { Self.row("app\($0)", UInt64($0) * 1_000_000, metered: $0 == 7) }
            + [Self.row("app1", 5_000_000, network: "eth0", metered: false), Self.row("old", 9_000_000, day: "2026-11-27")]
        let today = DataUsedToday(rows, day: "2026-11-28", user: 1000)
        #expect(today.total == 33_000_000 && today.metered == 7_000_000)
        #expect(today.apps.map(\.application) == ["app7", "app1", "app6", "app5", "app4"])
        #expect(today.apps[1].bytes == 6_000_000 && abs(today.apps[0].share - 7.0 / 33.0) < 1e-9)
        #expect(today.headline == "Used today: 33.0 MB (7.0 MB metered)")
        #expect(DataUsedToday.line(today.apps[0]) == "App7 — 7.0 MB")
        let menu = TrayMenu(activities: [], usedToday: today, at: 0, mayEndAll: false)
        #expect(menu.rows.contains(.usageHeader("Used today: 33.0 MB (7.0 MB metered)")))
        #expect(menu.rows.filter { if case .usage = $0 { true } else { false } }.count == 5)
        #expect(DataUsedToday([Self.row("app", 1_000, metered: false)], day: "2026-11-28", user: 1000).headline == "Used today: 1.0 kB")
        #expect(!TrayMenu(activities: [], usedToday: DataUsedToday([], day: "2026-11-28", user: 1000), at: 0, mayEndAll: false)
            .rows.contains { if case .usageHeader = $0 { true } else { false } })
    }

    /// The machine's data plans head the day's usage, each with what it used of its cap, in order of their
    /// networks; with plans and no usage yet, they show alone.
    @Test func theDataPlansHeadTheDaysUsage() {
        func plan(_ network: String, used: UInt64, cap: UInt64) -> NetworkDataPlan {
            NetworkDataPlan(PlanRecord(network: network, settings: PlanSettings(cap: cap, period: "month"), used: used,
                                       since: "2026-11-01", resets: "2026-12-01", level: nil))
        }
        let hotspot = plan("Phone hotspot", used: 8_000_000_000, cap: 10_000_000_000)
        #expect(DataUsedToday.planLine(hotspot) == "Phone hotspot: 8.0 GB of 10.0 GB (80 %)")
        #expect(DataUsedToday.planPercent(plan("eth0", used: 12_000_000, cap: 10_000_000)) == 100, "past the cap: 100")
        #expect(DataUsedToday.planPercent(plan("eth0", used: .max, cap: 1_000_000)) <= 100)
        let today = DataUsedToday([Self.row("app1", 1_000_000)], day: "2026-11-28", user: 1000)
        let menu = TrayMenu(activities: [], usedToday: today, plans: [hotspot, plan("Office", used: 0, cap: 1_000_000)],
                            at: 0, mayEndAll: false)
        let lines = menu.rows.compactMap { row -> String? in
            switch row {
            case .plan(_, let text), .usageHeader(let text), .usage(_, let text): text
            default: nil
            }
        }
        #expect(lines == ["Office: 0 B of 1.0 MB (0 %)", "Phone hotspot: 8.0 GB of 10.0 GB (80 %)",
                          "Used today: 1.0 MB (1.0 MB metered)", "App1 — 1.0 MB"])
        let alone = TrayMenu(activities: [], usedToday: DataUsedToday([], day: "2026-11-28", user: 1000),
                             plans: [hotspot], at: 0, mayEndAll: false)
        #expect(alone.rows.contains(.plan(0, "Phone hotspot: 8.0 GB of 10.0 GB (80 %)"))
                && alone.rows.filter { $0 == .separator }.count == 2, "\(alone.rows)")
    }

    /// Root reads everyone's rows; its panel counts its own apps and the machine's services, as it shows their
    /// activities.
    @Test func aPanelCountsItsUsersOwnAppsAndTheMachinesServicesAlone() {
        let rows = [Self.row("own", 3_000_000, user: 0), Self.row("apt", 2_000_000, user: 0, machines: true),
                    Self.row("theirs", 9_000_000, user: 1000)]
        let root = DataUsedToday(rows, day: "2026-11-28", user: 0)
        #expect(root.total == 5_000_000 && root.apps.map(\.application) == ["own", "apt"])
        let theirs = DataUsedToday(rows, day: "2026-11-28", user: 1000)
        #expect(theirs.total == 11_000_000 && theirs.apps.map(\.application) == ["theirs", "apt"])
    }

    @Test func anAppPastTheThresholdOnMeteredNetworksIsWarnedOfOnceADayAndOthersNever() {
        var warnings = MeteredWarnings(threshold: 100_000_000)
        let below = warnings.due([Self.row("firefox", 60_000_000), Self.row("firefox", 90_000_000, metered: false)],
                                 user: 1000, day: "2026-11-28")
        #expect(below.isEmpty, "bytes on unmetered networks do not count")
        let rows = [Self.row("firefox", 60_000_000), Self.row("firefox", 60_000_000, network: "Train Wi-Fi"),
                    Self.row("theirs", 500_000_000, user: 1001), Self.row("backup", 30_000_000),
                    Self.row("apt-daily.service", 300_000_000, user: 0, machines: true)]
        let due = warnings.due(rows, user: 1000, day: "2026-11-28")
        #expect(due.map(\.application) == ["firefox"], "the user's own apps only: neither another's nor the machine's")
        var roots = MeteredWarnings(threshold: 100_000_000)
        #expect(roots.due(rows, user: 0, day: "2026-11-28").isEmpty, "a service of the machine is nobody's app")
        #expect(due.first?.text == "Firefox has used 120.0 MB on Phone hotspot today"
                || due.first?.text == "Firefox has used 120.0 MB on Train Wi-Fi today")
        #expect(warnings.due(rows + [Self.row("firefox", 1)], user: 1000, day: "2026-11-28").isEmpty)
        // A new day: warned of again, and yesterday's warnings forgotten.
        let tomorrow = rows.map {
            Self.row($0.application, $0.total, network: $0.network, user: $0.user, machines: $0.privateTo == nil,
                     day: "2026-11-29")
        }
        #expect(warnings.due(tomorrow, user: 1000, day: "2026-11-29").map(\.application) == ["firefox"])
        #expect(warnings.warned == ["2026-11-29 firefox"])
        var never = MeteredWarnings(threshold: 0)
        #expect(never.due(rows, user: 1000, day: "2026-11-28").isEmpty)
    }
}
