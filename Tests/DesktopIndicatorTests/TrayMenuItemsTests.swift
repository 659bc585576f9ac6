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
