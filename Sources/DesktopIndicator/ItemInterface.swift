// SPDX-License-Identifier: Apache-2.0
import DBusKit

/// `org.kde.StatusNotifierItem` as `dbus/org.kde.StatusNotifierItem.xml` defines it, served by DBusKit: the
/// clicks and scrolls, the properties hosts read, and the `New*` signals that tell them to read again.
/// `ItemContractTests` compares this declaration with the XML.
extension ItemObject {
    /// The interface XML of `dbus/`, compiled into the program byte for byte: what `Introspect` returns.
    static let introspectionXML = String(decoding: PackageResources.org_kde_StatusNotifierItem_xml, as: UTF8.self)

    static let declaration = InterfaceDeclaration<ItemObject>(
        StatusNotifierItem.interface,
        methods: [
            MethodDeclaration(ItemMembers.activate) { item, _, x, y throws(DBusError) in
                item.onActivate(x, y)
                return NoValue()
            },
            // Hosts draw the menu from `Menu` themselves; there is nothing to scroll through. These are answered
            // and change nothing.
            MethodDeclaration(ItemMembers.secondaryActivate) { _, _, _, _ throws(DBusError) in NoValue() },
            MethodDeclaration(ItemMembers.contextMenu) { _, _, _, _ throws(DBusError) in NoValue() },
            MethodDeclaration(ItemMembers.scroll) { _, _, _, _ throws(DBusError) in NoValue() },
        ],
        // Hosts learn of changes from the New* signals, not from PropertiesChanged.
        properties: [
            PropertyDeclaration(ItemMembers.category, announcesChanges: false) { $0.category },
            // Never changed, but said again after a registration (`ItemObject.announceIdentity`).
            PropertyDeclaration(ItemMembers.id, announcesChanges: true) { $0.id },
            PropertyDeclaration(ItemMembers.title, announcesChanges: false) { $0.content.title },
            PropertyDeclaration(ItemMembers.status, announcesChanges: false) { $0.content.status.rawValue },
            // The item belongs to no window.
            PropertyDeclaration(ItemMembers.windowID, announcesChanges: false) { _ in 0 },
            PropertyDeclaration(ItemMembers.iconThemePath, announcesChanges: false) { _ in "" },
            PropertyDeclaration(ItemMembers.iconName, announcesChanges: false) { $0.content.iconName },
            PropertyDeclaration(ItemMembers.iconPixmap, announcesChanges: false) { $0.content.iconPixmaps },
            PropertyDeclaration(ItemMembers.overlayIconName, announcesChanges: false) { _ in "" },
            PropertyDeclaration(ItemMembers.overlayIconPixmap, announcesChanges: false) { _ in [] },
            PropertyDeclaration(ItemMembers.attentionIconName, announcesChanges: false) { $0.content.attentionIconName },
            PropertyDeclaration(ItemMembers.attentionIconPixmap, announcesChanges: false) { _ in [] },
            PropertyDeclaration(ItemMembers.attentionMovieName, announcesChanges: false) { _ in "" },
            PropertyDeclaration(ItemMembers.toolTip, announcesChanges: false) { $0.content.toolTip },
            // A click is Activate; the menu opens on a right click.
            PropertyDeclaration(ItemMembers.itemIsMenu, announcesChanges: false) { _ in false },
            PropertyDeclaration(ItemMembers.menu, announcesChanges: true) { _ in MenuObject.path },
        ],
        signals: [
            SignalDeclaration(ItemMembers.newTitle), SignalDeclaration(ItemMembers.newIcon),
            SignalDeclaration(ItemMembers.newAttentionIcon), SignalDeclaration(ItemMembers.newOverlayIcon),
            SignalDeclaration(ItemMembers.newToolTip), SignalDeclaration(ItemMembers.newStatus),
        ]
    )
}
