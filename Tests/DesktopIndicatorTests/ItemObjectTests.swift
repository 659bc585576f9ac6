import DBusKit
@testable import DesktopIndicator
import TestSupport
import Testing

/// The tray item's own handlers, served in memory: what hosts read, what a click does, and which `New*` signals a
/// change of content sends. The rules every object shares are `ServedObjectTests`'.
@Suite("The tray item's object, in memory")
struct ItemObjectTests {
    static let idle = ItemContent(
        title: "Network", status: .passive, iconName: "network-idle",
        iconPixmaps: [IconPixmap(width: 1, height: 1, argb: [255, 0, 0, 0])],
        toolTip: ToolTip(title: "Network", text: "No network activity"))

    final class Scene {
        let bus = InMemoryBus()
        var clicks: [(Int32, Int32)] = []
        private(set) var item: ItemObject!

        init() {
            item = ItemObject(id: "netactivity", category: "SystemServices", content: ItemObjectTests.idle,
                              send: bus.send, onActivate: { [unowned self] x, y in clicks.append((x, y)) })
        }

        func property<Value: DBusDecodable>(_ name: String, as type: Value.Type) throws -> Value {
            var reply = try bus.reply(item.object, StandardInterface.properties, StandardInterface.get.name) {
                $0.append(StatusNotifierItem.interface.rawValue)
                $0.append(name)
            }.arguments()
            return try reply.read(ReceivedVariant.self).decode(Value.self)
        }

        /// The members of the signals sent since the last call or `clear()`.
        var signalMembers: [String] { bus.signals.compactMap(\.member) }
    }

    @Test func hostsReadWhatTheItemShows() throws {
        let scene = Scene()
        #expect(try scene.property("Id", as: String.self) == "netactivity")
        #expect(try scene.property("Category", as: String.self) == "SystemServices")
        #expect(try scene.property("Status", as: String.self) == "Passive")
        #expect(try scene.property("IconName", as: String.self) == "network-idle")
        #expect(try scene.property("ItemIsMenu", as: Bool.self) == false)
        #expect(try scene.property("WindowId", as: Int32.self) == 0)
        #expect(try scene.property("Menu", as: ObjectPath.self) == "/MenuBar")
        var all = try scene.bus.reply(scene.item.object, StandardInterface.properties, StandardInterface.getAll.name) {
            $0.append(StatusNotifierItem.interface.rawValue)
        }.arguments()
        #expect(try all.read([String: ReceivedVariant].self).count == 16)
    }

    @Test func activateIsAClickAtThePositionTheHostGives() throws {
        let scene = Scene()
        let reply = try scene.bus.reply(scene.item.object, StatusNotifierItem.interface, "Activate") {
            $0.append(Int32(12))
            $0.append(Int32(-3))
        }
        #expect(reply.errorName == nil)
        #expect(scene.clicks.map { [$0.0, $0.1] } == [[12, -3]])
    }

    @Test func theOtherGesturesAreAnsweredAndDoNothing() throws {
        let scene = Scene()
        for member: MemberName in ["SecondaryActivate", "ContextMenu"] {
            let reply = try scene.bus.reply(scene.item.object, StatusNotifierItem.interface, member) {
                $0.append(Int32(1))
                $0.append(Int32(2))
            }
            #expect(reply.errorName == nil)
        }
        #expect(try scene.bus.errorName(scene.item.object, StatusNotifierItem.interface, "Scroll") {
            $0.append(Int32(120))
            $0.append("vertical")
        } == nil)
        #expect(try scene.bus.errorName(scene.item.object, StatusNotifierItem.interface, "Activate") {
            $0.append("here")
        } == ErrorName.invalidArgs.rawValue)
        #expect(scene.clicks.isEmpty)
    }

    @Test func aChangeSendsTheSignalOfEachPartThatChangedAndNoOther() throws {
        let scene = Scene()
        var active = Self.idle
        active.status = .active
        active.iconName = "network-transmit-receive"
        active.toolTip.text = "1 active: mail"
        scene.item.update(active, announcing: true)
        #expect(scene.signalMembers == ["NewIcon", "NewToolTip", "NewStatus"])
        var status = try #require(scene.bus.signals.last).arguments()
        #expect(try status.read(String.self) == "Active")
        #expect(try scene.property("IconName", as: String.self) == "network-transmit-receive")

        scene.bus.clear()
        scene.item.update(active, announcing: true)
        #expect(scene.signalMembers == [], "nothing changed")

        var retitled = active
        retitled.title = "Network activity"
        scene.item.update(retitled, announcing: true)
        #expect(scene.signalMembers == ["NewTitle"])
    }

    @Test func aChangeThatIsNotAnnouncedSendsNothingAndIsReadAfter() throws {
        let scene = Scene()
        var active = Self.idle
        active.status = .active
        active.title = "Network activity"
        scene.item.update(active, announcing: false)
        #expect(scene.signalMembers == [])
        #expect(try scene.property("Status", as: String.self) == "Active")
        #expect(try scene.property("Title", as: String.self) == "Network activity")
    }
}
