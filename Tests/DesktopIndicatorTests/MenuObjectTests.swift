import DBusKit
@testable import DesktopIndicator
import TestSupport
import Testing

/// The tray item's menu, served in memory as hosts call it in the dbusmenu protocol: the layout and its revisions,
/// the rows' properties, the events a click sends, and the errors for items that do not exist.
@Suite("The tray item's menu, in memory")
struct MenuObjectTests {
    static let rows = [
        MenuItem(id: 1, label: "2 active", isEnabled: false),
        MenuItem(id: 100, label: "Backup Tool: backup — 3 min", isEnabled: false, iconName: "document-save"),
        .separator(id: 2),
        MenuItem(id: 3, label: "Show details"),
    ]

    final class Scene {
        let bus = InMemoryBus()
        var events: [String] = []
        var openings = 0
        var rowsOnOpening: [MenuItem]?
        private(set) var menu: MenuObject!

        init(rows: [MenuItem] = MenuObjectTests.rows) {
            menu = MenuObject(rows: rows, send: bus.send,
                              onEvent: { [unowned self] id, event in events.append("\(id) \(event)") },
                              onOpening: { [unowned self] in
                                  openings += 1
                                  if let rowsOnOpening { menu.update(rowsOnOpening, announcing: true) }
                              })
        }

        /// `GetLayout`'s revision and layout, the layout as (id, properties, children) with children's ids only.
        func layout(parent: Int32 = 0, depth: Int32 = -1, names: [String] = []) throws
            -> (revision: UInt32, id: Int32, properties: [String: ReceivedVariant], children: [Int32])
        {
            var reply = try bus.reply(menu.object, MenuObject.interface, "GetLayout") {
                $0.append(parent)
                $0.append(depth)
                $0.append(names)
            }.arguments()
            let revision = try reply.read(UInt32.self)
            let (id, properties, children) = try reply.readStruct("(ia{sv}av)") {
                (node: inout MessageReader) throws(DBusError) in
                let id = try node.read(Int32.self)
                let properties = try node.read([String: ReceivedVariant].self)
                let children = try node.readArray("v") { (child: inout MessageReader) throws(DBusError) in
                    try child.readVariant { (inner: inout MessageReader) throws(DBusError) in
                        try inner.readStruct("(ia{sv}av)") { (fields: inout MessageReader) throws(DBusError) in
                            let id = try fields.read(Int32.self)
                            fields.skip()
                            fields.skip()
                            return id
                        }
                    }
                }
                return (id, properties, children)
            }
            return (revision, id, properties, children)
        }
    }

    @Test func theLayoutIsTheRootWithItsRowsInOrder() throws {
        let scene = Scene()
        let layout = try scene.layout()
        #expect(layout.id == 0)
        #expect(try layout.properties["children-display"]?.decode(String.self) == "submenu")
        #expect(layout.children == [1, 100, 2, 3])
        #expect(try scene.layout(depth: 0).children == [], "depth 0 is the item alone")
        let row = try scene.layout(parent: 100)
        #expect(try row.properties["label"]?.decode(String.self) == "Backup Tool: backup — 3 min")
        #expect(try row.properties["enabled"]?.decode(Bool.self) == false)
        #expect(try scene.layout(parent: 2).properties["type"]?.decode(String.self) == "separator")
        #expect(try scene.layout(parent: 3, names: ["label"]).properties.keys.sorted() == ["label"])
    }

    @Test func groupPropertiesAndOneProperty() throws {
        let scene = Scene()
        var reply = try scene.bus.reply(scene.menu.object, MenuObject.interface, "GetGroupProperties") {
            $0.append([Int32(3), 77, 1])
            $0.append(["label"])
        }.arguments()
        let found = try reply.readArray("(ia{sv})") { (entry: inout MessageReader) throws(DBusError) in
            try entry.readStruct("(ia{sv})") { (fields: inout MessageReader) throws(DBusError) in
                (try fields.read(Int32.self), try fields.read([String: ReceivedVariant].self))
            }
        }
        #expect(found.map(\.0) == [3, 1], "the unknown id 77 is left out")
        #expect(try found[0].1["label"]?.decode(String.self) == "Show details")

        var one = try scene.bus.reply(scene.menu.object, MenuObject.interface, "GetProperty") {
            $0.append(Int32(1))
            $0.append("label")
        }.arguments()
        #expect(try one.read(ReceivedVariant.self).decode(String.self) == "2 active")
        var icon = try scene.bus.reply(scene.menu.object, MenuObject.interface, "GetProperty") {
            $0.append(Int32(100))
            $0.append("icon-name")
        }.arguments()
        #expect(try icon.read(ReceivedVariant.self).decode(String.self) == "document-save",
                "an activity's row has its application's icon")
        #expect(try scene.bus.errorName(scene.menu.object, MenuObject.interface, "GetProperty") {
            $0.append(Int32(1))
            $0.append("icon-data")
        } == ErrorName.invalidArgs.rawValue)
    }

    @Test func eventsReachTheOwnerAndUnknownItemsAreErrors() throws {
        let scene = Scene()
        for (id, event) in [(Int32(3), "clicked"), (0, "opened")] {
            #expect(try scene.bus.errorName(scene.menu.object, MenuObject.interface, "Event") {
                $0.append(id)
                $0.append(event)
                $0.append(Variant(""))
                $0.append(UInt32(0))
            } == nil)
        }
        #expect(try scene.bus.errorName(scene.menu.object, MenuObject.interface, "Event") {
            $0.append(Int32(42))
            $0.append("clicked")
            $0.append(Variant(Int32(0)))
            $0.append(UInt32(0))
        } == ErrorName.invalidArgs.rawValue)
        var group = try scene.bus.reply(scene.menu.object, MenuObject.interface, "EventGroup") {
            $0.appendArray(elementSignature: "(isvu)") { events in
                for id: Int32 in [3, 42] {
                    events.appendStruct { event in
                        event.append(id)
                        event.append("clicked")
                        event.append(Variant(""))
                        event.append(UInt32(0))
                    }
                }
            }
        }.arguments()
        #expect(try group.read([Int32].self) == [42])
        #expect(scene.events == ["3 clicked", "0 opened", "3 clicked"])
    }

    @Test func aboutToShowBringsTheRowsUpToDateAndSaysWhetherTheyChanged() throws {
        let scene = Scene()
        var unchanged = try scene.bus.reply(scene.menu.object, MenuObject.interface, "AboutToShow") {
            $0.append(Int32(0))
        }.arguments()
        #expect(try unchanged.read(Bool.self) == false)
        let before = try scene.layout().revision

        var older = MenuObjectTests.rows
        older[1].label = "backup — 4 min"
        scene.rowsOnOpening = older
        var changed = try scene.bus.reply(scene.menu.object, MenuObject.interface, "AboutToShow") {
            $0.append(Int32(0))
        }.arguments()
        #expect(try changed.read(Bool.self) == true)
        #expect(try scene.layout().revision == before + 1)
        #expect(scene.openings == 2)

        var group = try scene.bus.reply(scene.menu.object, MenuObject.interface, "AboutToShowGroup") {
            $0.append([Int32(0), 9])
        }.arguments()
        #expect(try group.read([Int32].self) == [], "nothing changed since")
        #expect(try group.read([Int32].self) == [9])
    }

    @Test func aNewLayoutIsANewRevisionAnnouncedOnlyWhenAsked() throws {
        let scene = Scene()
        let first = try scene.layout().revision
        scene.bus.clear()
        scene.menu.update(MenuObjectTests.rows, announcing: true)
        #expect(scene.bus.signals.isEmpty, "the same rows are no new revision")

        scene.menu.update(Array(MenuObjectTests.rows.dropFirst()), announcing: true)
        let signal = try #require(scene.bus.signals.first)
        #expect(signal.member == "LayoutUpdated")
        var arguments = signal.arguments()
        #expect(try arguments.read(UInt32.self) == first + 1)
        #expect(try arguments.read(Int32.self) == 0)

        scene.bus.clear()
        scene.menu.update(MenuObjectTests.rows, announcing: false)
        #expect(scene.bus.signals.isEmpty)
        #expect(try scene.layout().revision == first + 2)
    }

    /// A row with children opens them as a submenu, `recursionDepth` levels deep; its children are items as any
    /// other, for properties and events, with their toggles.
    @Test func aRowWithChildrenOpensThemAsASubmenuWithTheirToggles() throws {
        let limit = MenuItem(id: 102, label: "Limit Steam", children: [
            MenuItem(id: 103, label: "1.0 MB/s", toggle: .radio(isOn: true)),
            MenuItem(id: 104, label: "No limit", toggle: .radio(isOn: false)),
            .separator(id: 105),
            MenuItem(id: 106, label: "Pause on metered networks", toggle: .checkmark(isOn: false)),
        ])
        let scene = Scene(rows: MenuObjectTests.rows + [limit])
        #expect(try scene.layout().children == [1, 100, 2, 3, 102])
        let submenu = try scene.layout(parent: 102)
        #expect(submenu.children == [103, 104, 105, 106])
        #expect(try submenu.properties["children-display"]?.decode(String.self) == "submenu")
        #expect(try scene.layout(parent: 102, depth: 0).children == [])
        #expect(try scene.layout(parent: 3).properties["children-display"] == nil, "a row without children opens none")

        var chosen = try scene.bus.reply(scene.menu.object, MenuObject.interface, "GetGroupProperties") {
            $0.append([Int32(103), 106])
            $0.append(["toggle-type", "toggle-state"])
        }.arguments()
        let found = try chosen.readArray("(ia{sv})") { (entry: inout MessageReader) throws(DBusError) in
            try entry.readStruct("(ia{sv})") { (fields: inout MessageReader) throws(DBusError) in
                (try fields.read(Int32.self), try fields.read([String: ReceivedVariant].self))
            }
        }
        #expect(found.map(\.0) == [103, 106])
        #expect(try found[0].1["toggle-type"]?.decode(String.self) == "radio")
        #expect(try found[0].1["toggle-state"]?.decode(Int32.self) == 1)
        #expect(try found[1].1["toggle-type"]?.decode(String.self) == "checkmark")
        #expect(try found[1].1["toggle-state"]?.decode(Int32.self) == 0)
        #expect(try scene.layout(parent: 1).properties["toggle-type"] == nil, "a plain row has no toggle")

        #expect(try scene.bus.errorName(scene.menu.object, MenuObject.interface, "Event") {
            $0.append(Int32(106))
            $0.append("clicked")
            $0.append(Variant(""))
            $0.append(UInt32(0))
        } == nil)
        #expect(scene.events == ["106 clicked"])
    }

    @Test func theMenuPropertiesAreVersionThree() throws {
        let scene = Scene()
        var all = try scene.bus.reply(scene.menu.object, StandardInterface.properties, StandardInterface.getAll.name) {
            $0.append(MenuObject.interface.rawValue)
        }.arguments()
        let properties = try all.read([String: ReceivedVariant].self)
        #expect(try properties["Version"]?.decode(UInt32.self) == 3)
        #expect(try properties["Status"]?.decode(String.self) == "normal")
        #expect(try properties["TextDirection"]?.decode(String.self) == "ltr")
        #expect(try properties["IconThemePath"]?.decode([String].self) == [])
    }
}
