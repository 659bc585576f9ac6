import DBusKit

/// `com.canonical.dbusmenu` as `dbus/com.canonical.dbusmenu.xml` defines it, served by DBusKit. `MenuContractTests`
/// compares this declaration with the XML.
extension MenuObject {
    /// The interface XML of `dbus/`, compiled into the program byte for byte: what `Introspect` returns.
    static let introspectionXML = String(decoding: PackageResources.com_canonical_dbusmenu_xml, as: UTF8.self)

    static let declaration = InterfaceDeclaration<MenuObject>(
        interface,
        methods: [
            MethodDeclaration(
                "GetLayout",
                inputs: [.init("parentId", "i"), .init("recursionDepth", "i"), .init("propertyNames", "as")],
                outputs: [.init("revision", "u"), .init("layout", MenuLayoutNode.dbusSignature)]
            ) { menu, call throws(DBusError) in
                var arguments = call.arguments()
                let parent = try arguments.read(Int32.self)
                let depth = try arguments.read(Int32.self)
                let layout = try menu.layout(under: parent, depth: depth, properties: try arguments.read([String].self))
                let reply = call.makeReturn()
                reply.appendArguments { values in
                    values.append(menu.revision)
                    values.append(layout)
                }
                return reply
            },
            MethodDeclaration(
                "GetGroupProperties", inputs: [.init("ids", "ai"), .init("propertyNames", "as")],
                outputs: [.init("properties", [MenuItemProperties].dbusSignature)]
            ) { menu, call throws(DBusError) in
                var arguments = call.arguments()
                let ids = try arguments.read([Int32].self)
                return call.makeReturn(with: menu.properties(of: ids, named: try arguments.read([String].self)))
            },
            MethodDeclaration(
                "GetProperty", inputs: [.init("id", "i"), .init("name", "s")], outputs: [.init("value", "v")]
            ) { menu, call throws(DBusError) in
                var arguments = call.arguments()
                let id = try arguments.read(Int32.self)
                let name = try arguments.read(String.self)
                guard let found = menu.properties(of: [id], named: [name]).first else { throw unknownItem(id) }
                guard let value = found.properties[name] else {
                    throw DBusError(.invalidArgs, "menu item \(id) has no property \"\(name)\"")
                }
                return call.makeReturn(with: value)
            },
            MethodDeclaration(
                "Event",
                inputs: [.init("id", "i"), .init("eventId", "s"), .init("data", "v"), .init("timestamp", "u")]
            ) { menu, call throws(DBusError) in
                var arguments = call.arguments()
                let id = try arguments.read(Int32.self)
                guard menu.contains(id) else { throw unknownItem(id) }
                menu.onEvent(id, try arguments.read(String.self))
                return call.makeReturn()
            },
            MethodDeclaration(
                "EventGroup", inputs: [.init("events", "a(isvu)")], outputs: [.init("idErrors", "ai")]
            ) { menu, call throws(DBusError) in
                var arguments = call.arguments()
                let events = try arguments.read([MenuEvent].self)
                let unknown = events.filter { !menu.contains($0.id) }.map(\.id)
                guard unknown.count < events.count || events.isEmpty else {
                    throw DBusError(.invalidArgs, "the menu has none of the items \(unknown)")
                }
                for event in events where menu.contains(event.id) { menu.onEvent(event.id, event.name) }
                return call.makeReturn(with: unknown)
            },
            MethodDeclaration(
                "AboutToShow", inputs: [.init("id", "i")], outputs: [.init("needUpdate", "b")]
            ) { menu, call throws(DBusError) in
                var arguments = call.arguments()
                let id = try arguments.read(Int32.self)
                guard menu.contains(id) else { throw unknownItem(id) }
                return call.makeReturn(with: menu.prepareToShow())
            },
            MethodDeclaration(
                "AboutToShowGroup", inputs: [.init("ids", "ai")],
                outputs: [.init("updatesNeeded", "ai"), .init("idErrors", "ai")]
            ) { menu, call throws(DBusError) in
                var arguments = call.arguments()
                let ids = try arguments.read([Int32].self)
                let known = ids.filter(menu.contains)
                let updated = !known.isEmpty && menu.prepareToShow()
                let reply = call.makeReturn()
                reply.appendArguments { values in
                    values.append(updated ? known : [])
                    values.append(ids.filter { !menu.contains($0) })
                }
                return reply
            },
        ],
        properties: [
            PropertyDeclaration("Version", UInt32.self, announcesChanges: false) { _ in 3 },
            PropertyDeclaration("TextDirection", String.self, announcesChanges: false) { _ in "ltr" },
            PropertyDeclaration("Status", String.self, announcesChanges: false) { _ in "normal" },
            PropertyDeclaration("IconThemePath", [String].self, announcesChanges: false) { _ in [] },
        ],
        signals: [
            SignalDeclaration("ItemsPropertiesUpdated", arguments: [
                .init("updatedProps", [MenuItemProperties].dbusSignature), .init("removedProps", "a(ias)"),
            ]),
            SignalDeclaration("LayoutUpdated", arguments: [.init("revision", "u"), .init("parent", "i")]),
            SignalDeclaration("ItemActivationRequested", arguments: [.init("id", "i"), .init("timestamp", "u")]),
        ]
    )
}
