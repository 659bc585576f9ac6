// SPDX-License-Identifier: Apache-2.0
import DBusKit

/// `com.canonical.dbusmenu` as `dbus/com.canonical.dbusmenu.xml` defines it, served by DBusKit. `MenuContractTests`
/// compares this declaration with the XML.
extension MenuObject {
    /// The interface XML of `dbus/`, compiled into the program byte for byte: what `Introspect` returns.
    static let introspectionXML = String(decoding: PackageResources.com_canonical_dbusmenu_xml, as: UTF8.self)

    static let declaration = InterfaceDeclaration<MenuObject>(
        MenuMembers.interface,
        methods: [
            MethodDeclaration(MenuMembers.getLayout) { menu, _, parent, depth, names throws(DBusError) in
                TwoValues(menu.revision, try menu.layout(under: parent, depth: depth, properties: names))
            },
            MethodDeclaration(MenuMembers.getGroupProperties) { menu, _, ids, names throws(DBusError) in
                menu.properties(of: ids, named: names)
            },
            MethodDeclaration(MenuMembers.getProperty) { menu, _, id, name throws(DBusError) in
                guard let found = menu.properties(of: [id], named: [name]).first else { throw unknownItem(id) }
                guard let value = found.properties[name] else {
                    throw DBusError(.invalidArgs, "menu item \(id) has no property \"\(name)\"")
                }
                return value
            },
            MethodDeclaration(MenuMembers.event) { menu, _, id, event, _, _ throws(DBusError) in
                guard menu.contains(id) else { throw unknownItem(id) }
                menu.onEvent(id, event)
                return NoValue()
            },
            MethodDeclaration(MenuMembers.eventGroup) { menu, _, events throws(DBusError) in
                let unknown = events.filter { !menu.contains($0.id) }.map(\.id)
                guard unknown.count < events.count || events.isEmpty else {
                    throw DBusError(.invalidArgs, "the menu has none of the items \(unknown)")
                }
                for event in events where menu.contains(event.id) { menu.onEvent(event.id, event.name) }
                return unknown
            },
            MethodDeclaration(MenuMembers.aboutToShow) { menu, _, id throws(DBusError) in
                guard menu.contains(id) else { throw unknownItem(id) }
                return menu.prepareToShow()
            },
            MethodDeclaration(MenuMembers.aboutToShowGroup) { menu, _, ids throws(DBusError) in
                let known = ids.filter(menu.contains)
                let updated = !known.isEmpty && menu.prepareToShow()
                return TwoValues(updated ? known : [], ids.filter { !menu.contains($0) })
            },
        ],
        properties: [
            PropertyDeclaration(MenuMembers.version, announcesChanges: false) { _ in 3 },
            PropertyDeclaration(MenuMembers.textDirection, announcesChanges: false) { _ in "ltr" },
            PropertyDeclaration(MenuMembers.status, announcesChanges: false) { _ in "normal" },
            PropertyDeclaration(MenuMembers.iconThemePath, announcesChanges: false) { _ in [] },
        ],
        signals: [
            SignalDeclaration(MenuMembers.itemsPropertiesUpdated),
            SignalDeclaration(MenuMembers.layoutUpdated),
            SignalDeclaration(MenuMembers.itemActivationRequested),
        ]
    )
}
