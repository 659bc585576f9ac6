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
