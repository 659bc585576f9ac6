import DesktopIndicator
import NetworkActivityClient
import Testing

/// The menu's items and what a click on one asks for, with no bus.
@Suite struct TrayMenuItemsTests {
    static let now = TrayMenuTests.now

    static func menu(_ activities: [ActivityStatus], mayEndAll: Bool = true) -> TrayMenu {
        TrayMenu(activities: activities, at: now, mayEndAll: mayEndAll)
    }

    @Test func aClickOnStopAsksToStopTheActivityItShows() throws {
        var items = TrayMenuItems()
        let backup = ActivityStatus.example(id: 4, label: "backup", isCancellable: true)
        let drawn = items.items(of: Self.menu([backup]))
        let stop = try #require(drawn.first { $0.label == "Stop backup" })
        #expect(items.intent(ofClickOn: stop.id) == .stop(ActivityID(rawValue: 4)))
        let row = try #require(drawn.first { $0.label.hasPrefix("backup") })
        #expect(items.intent(ofClickOn: row.id) == nil, "the activity's own row is for reading")
    }

    /// A measured app of the menu's user has Pause under it, with a name for screen readers; paused, Resume; a
    /// click asks for what the row said when it was drawn. Another user's app has neither; root's menu has both.
    @Test func aMeasuredAppOfTheUsersHasPauseThenResume() throws {
        var items = TrayMenuItems()
        func app(paused: Bool, user: UInt32 = 1000) -> ActivityStatus {
            var app = ActivityStatus.example(id: 9, label: "Steam", rate: 9_000_000)
            app.record.isPaused = paused
            app.record.user = user
            app.record.source = .traffic
            return app
        }
        let drawn = items.items(of: TrayMenu(activities: [app(paused: false)], at: Self.now, mayEndAll: false,
                                             pausingUser: 1000))
        let pause = try #require(drawn.first { $0.label == "Pause Steam" }, "\(drawn)")
        #expect(pause.accessibleDescription == "Pause Steam’s network" && pause.isEnabled)
        #expect(items.intent(ofClickOn: pause.id) == .pause(ActivityID(rawValue: 9)))
        let paused = items.items(of: TrayMenu(activities: [app(paused: true)], at: Self.now, mayEndAll: false,
                                              pausingUser: 1000))
        let resume = try #require(paused.first { $0.label == "Resume Steam" }, "\(paused)")
        #expect(resume.id == pause.id && items.intent(ofClickOn: resume.id) == .resume(ActivityID(rawValue: 9)))
        #expect(paused.contains { $0.label.hasPrefix("Steam") && $0.label.contains("paused") }, "\(paused)")

        let others = TrayMenu(activities: [app(paused: false, user: 1001)], at: Self.now, mayEndAll: false,
                              pausingUser: 1000)
        #expect(!others.rows.contains { if case .pause = $0 { true } else { false } })
        let roots = TrayMenu(activities: [app(paused: false, user: 1001)], at: Self.now, mayEndAll: false,
                             pausingUser: 0)
        #expect(roots.rows.contains { if case .pause = $0 { true } else { false } })
        #expect(!Self.menu([app(paused: false)]).rows.contains { if case .pause = $0 { true } else { false } },
                "no user given: no pause")
    }

    /// Under Pause, a measured app has Limit: a submenu of the presets, the one its rule holds marked, "No limit",
    /// and "Pause on metered networks" as a check box; a click asks for the rule of the app's id.
    @Test func aMeasuredAppHasLimitPresetsAndPauseOnMetered() throws {
        var items = TrayMenuItems()
        func app(down: UInt64? = nil, up: UInt64? = nil, onMetered: String? = nil) -> ActivityStatus {
            var app = ActivityStatus.example(id: 9, label: "Steam", rate: 9_000_000)
            app.record.isPaused = false
            app.record.user = 1000
            app.record.source = .traffic
            app.record.application = "steam"
            app.record.limitDown = down
            app.record.limitUp = up
            app.record.limitOnMetered = onMetered
            return app
        }
        func submenu(of activity: ActivityStatus) throws -> MenuItem {
            let drawn = items.items(of: TrayMenu(activities: [activity], at: Self.now, mayEndAll: false,
                                                 pausingUser: 1000))
            let limit = try #require(drawn.first { $0.label == "Limit Steam" }, "\(drawn)")
            #expect(limit.accessibleDescription == "Limit steam’s speed", "the app's name where it has no desktop file")
            let ids = (drawn + drawn.flatMap(\.children)).map(\.id)
            #expect(Set(ids).count == ids.count, "no two items share an id: \(ids)")
            return limit
        }
        func chosen(_ limit: MenuItem) -> [String] {
            limit.children.filter { $0.toggle == .radio(isOn: true) || $0.toggle == .checkmark(isOn: true) }
                .map(\.label)
        }

        let free = try submenu(of: app())
        #expect(free.children.map(\.label) == ["100 kB/s", "1 MB/s", "10 MB/s", "No limit", "",
                                              "Pause on metered networks"])
        #expect(chosen(free) == ["No limit"])
        let oneMegabyte = try #require(free.children.first { $0.label == "1 MB/s" })
        #expect(items.intent(ofClickOn: oneMegabyte.id) == .limit(application: "steam", rate: 1_000_000))
        let metered = try #require(free.children.last)
        #expect(items.intent(ofClickOn: metered.id) == .pauseOnMetered(application: "steam", true))
        #expect(items.intent(ofClickOn: free.id) == nil, "the submenu's row opens it, and asks for nothing")

        let limited = try submenu(of: app(down: 1_000_000, up: 1_000_000, onMetered: "pause"))
        #expect(chosen(limited) == ["1 MB/s", "Pause on metered networks"])
        let none = try #require(limited.children.first { $0.label == "No limit" })
        #expect(items.intent(ofClickOn: none.id) == .limit(application: "steam", rate: 0))
        #expect(items.intent(ofClickOn: try #require(limited.children.last).id)
                == .pauseOnMetered(application: "steam", false), "a second click takes the pause back")
        #expect(chosen(try submenu(of: app(down: 1_000_000))) == [], "a limit of its own is no preset")
        #expect(items.intent(ofClickOn: .min) == nil && items.intent(ofClickOn: .max) == nil)

        var caller = ActivityStatus.example(id: 3, label: "backup")
        caller.record.application = "deja-dup"
        #expect(!TrayMenu(activities: [caller], at: Self.now, mayEndAll: false, pausingUser: 1000).rows
            .contains { if case .limit = $0 { true } else { false } }, "a caller's activity has no limits")
    }

    @Test func anActivityKeepsItsItemsWhileOthersComeAndGo() throws {
        var items = TrayMenuItems()
        let backup = ActivityStatus.example(id: 4, label: "backup", isCancellable: true)
        let sync = ActivityStatus.example(id: 7, label: "sync", isCancellable: true)
        let before = try #require(items.items(of: Self.menu([sync, backup])).first { $0.label == "Stop backup" })
        let after = try #require(items.items(of: Self.menu([backup])).first { $0.label == "Stop backup" })
        #expect(before.id == after.id)
        _ = items.items(of: Self.menu([]))
        #expect(items.intent(ofClickOn: before.id) == nil, "an activity no longer listed is not stopped")
    }

    @Test func theActionsAskForWhatTheySay() throws {
        var items = TrayMenuItems()
        let drawn = items.items(of: Self.menu([.example(id: 1, label: "fetch")]))
        let details = try #require(drawn.first { $0.label == TrayMenu.showDetailsLabel })
        let endAll = try #require(drawn.first { $0.label == TrayMenu.endAllLabel })
        #expect(items.intent(ofClickOn: details.id) == .showDetails)
        #expect(items.intent(ofClickOn: endAll.id) == .endAll)
        #expect(Set(drawn.map(\.id)).count == drawn.count, "no two items share an id")
    }
}
