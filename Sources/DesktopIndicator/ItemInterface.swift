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
            MethodDeclaration("Activate", inputs: position) { item, call throws(DBusError) in
                var arguments = call.arguments()
                let x = try arguments.read(Int32.self)
                item.onActivate(x, try arguments.read(Int32.self))
                return call.makeReturn()
            },
            // Hosts draw the menu from `Menu` themselves; there is nothing to scroll through. These are answered
            // and change nothing.
            MethodDeclaration("SecondaryActivate", inputs: position) { _, call in call.makeReturn() },
            MethodDeclaration("ContextMenu", inputs: position) { _, call in call.makeReturn() },
            MethodDeclaration("Scroll", inputs: [.init("delta", "i"), .init("orientation", "s")]) { _, call in
                call.makeReturn()
            },
        ],
        // Hosts learn of changes from the New* signals, not from PropertiesChanged.
        properties: [
            PropertyDeclaration("Category", String.self, announcesChanges: false) { $0.category },
            // Never changed, but said again after a registration (`ItemObject.announceIdentity`).
            PropertyDeclaration("Id", String.self, announcesChanges: true) { $0.id },
            PropertyDeclaration("Title", String.self, announcesChanges: false) { $0.content.title },
            PropertyDeclaration("Status", String.self, announcesChanges: false) { $0.content.status.rawValue },
            // The item belongs to no window.
            PropertyDeclaration("WindowId", Int32.self, announcesChanges: false) { _ in 0 },
            PropertyDeclaration("IconThemePath", String.self, announcesChanges: false) { _ in "" },
            PropertyDeclaration("IconName", String.self, announcesChanges: false) { $0.content.iconName },
            PropertyDeclaration("IconPixmap", [IconPixmap].self, announcesChanges: false) { $0.content.iconPixmaps },
            PropertyDeclaration("OverlayIconName", String.self, announcesChanges: false) { _ in "" },
            PropertyDeclaration("OverlayIconPixmap", [IconPixmap].self, announcesChanges: false) { _ in [] },
            PropertyDeclaration("AttentionIconName", String.self, announcesChanges: false) {
                $0.content.attentionIconName
            },
            PropertyDeclaration("AttentionIconPixmap", [IconPixmap].self, announcesChanges: false) { _ in [] },
            PropertyDeclaration("AttentionMovieName", String.self, announcesChanges: false) { _ in "" },
            PropertyDeclaration("ToolTip", ToolTip.self, announcesChanges: false) { $0.content.toolTip },
            // A click is Activate; the menu opens on a right click.
            PropertyDeclaration("ItemIsMenu", Bool.self, announcesChanges: false) { _ in false },
            PropertyDeclaration("Menu", ObjectPath.self, announcesChanges: true) { _ in MenuObject.path },
        ],
        signals: [
            SignalDeclaration("NewTitle"), SignalDeclaration("NewIcon"), SignalDeclaration("NewAttentionIcon"),
            SignalDeclaration("NewOverlayIcon"), SignalDeclaration("NewToolTip"),
            SignalDeclaration("NewStatus", arguments: [.init("status", "s")]),
        ]
    )

    /// Where on the screen a click was, as the host tells it.
    private static let position = [ArgumentDeclaration("x", "i"), ArgumentDeclaration("y", "i")]
}
