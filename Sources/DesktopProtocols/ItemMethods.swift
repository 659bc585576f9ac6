import DBusKit

/// The item's methods: its properties through `org.freedesktop.DBus.Properties`, `Introspect`, and the clicks and
/// scrolls of `org.kde.StatusNotifierItem`. Every call gets exactly one answer (none when it asked for none).
extension StatusNotifierItem {
    /// The interface XML of `dbus/`, compiled into the program byte for byte.
    static let introspectionXML = String(decoding: PackageResources.org_kde_StatusNotifierItem_xml, as: UTF8.self)

    private static let properties: InterfaceName = "org.freedesktop.DBus.Properties"
    private static let introspectable: InterfaceName = "org.freedesktop.DBus.Introspectable"
    private static let peer: InterfaceName = "org.freedesktop.DBus.Peer"

    func handle(_ call: Message) -> CallDisposition {
        // libdbus answers Peer itself.
        if call.hasInterface(Self.peer) { return .notHandled }
        let reply: Message
        do throws(DBusError) {
            reply = try answer(call)
        } catch {
            reply = call.makeErrorReply(error)
        }
        if call.expectsReply { connection.send(reply) }
        return .handled
    }

    private func answer(_ call: Message) throws(DBusError) -> Message {
        var arguments = call.arguments()
        if try call.isMethod(Self.properties, "Get", signature: "ss") {
            try DBusError.checkPropertyInterface(try arguments.read(String.self), is: Self.interface)
            let name = try arguments.read(String.self)
            guard let value = propertyValues[name] else { throw DBusError.unknownProperty(name, of: Self.interface) }
            return call.makeReturn(with: value)
        }
        if try call.isMethod(Self.properties, "GetAll", signature: "s") {
            try DBusError.checkPropertyInterface(try arguments.read(String.self), is: Self.interface)
            return call.makeReturn(with: propertyValues)
        }
        if try call.isMethod(Self.properties, "Set", signature: "ssv") {
            try DBusError.checkPropertyInterface(try arguments.read(String.self), is: Self.interface)
            let name = try arguments.read(String.self)
            guard propertyValues[name] != nil else { throw DBusError.unknownProperty(name, of: Self.interface) }
            throw DBusError.propertyReadOnly(name)
        }
        if try call.isMethod(Self.introspectable, "Introspect", signature: "") {
            return call.makeReturn(with: Self.introspectionXML)
        }
        if try call.isMethod(Self.interface, "Activate", signature: "ii") {
            let x = try arguments.read(Int32.self)
            onActivate(x, try arguments.read(Int32.self))
            return call.makeReturn()
        }
        // The item has no menu and nothing to scroll through: these are answered and change nothing.
        let ignored: [(MemberName, String)] = [("SecondaryActivate", "ii"), ("ContextMenu", "ii"), ("Scroll", "is")]
        for (member, signature) in ignored where try call.isMethod(Self.interface, member, signature: signature) {
            return call.makeReturn()
        }
        let interface = call.interface.map { "\($0)." } ?? ""
        throw DBusError(.unknownMethod, "the item has no method \(interface)\(call.member ?? "")")
    }

    /// Every property, with its value now.
    private var propertyValues: [String: Variant] {
        [
            "Category": Variant(category),
            "Id": Variant(id),
            "Title": Variant(content.title),
            "Status": Variant(content.status.rawValue),
            // The item belongs to no window.
            "WindowId": Variant(Int32(0)),
            "IconThemePath": Variant(""),
            "IconName": Variant(content.iconName),
            "IconPixmap": Variant(content.iconPixmaps),
            "OverlayIconName": Variant(""),
            "OverlayIconPixmap": Variant([IconPixmap]()),
            "AttentionIconName": Variant(content.attentionIconName),
            "AttentionIconPixmap": Variant([IconPixmap]()),
            "AttentionMovieName": Variant(""),
            "ToolTip": Variant(content.toolTip),
            // A click is Activate, not a menu.
            "ItemIsMenu": Variant(false),
        ]
    }
}

extension Message {
    /// Whether this call is `member`, of `interface` or of no named interface; throws `InvalidArgs` when it is
    /// but its arguments have another signature.
    fileprivate func isMethod(_ interface: InterfaceName, _ member: MemberName, signature: String) throws(DBusError)
        -> Bool
    {
        guard hasMember(member), self.interface == nil || hasInterface(interface) else { return false }
        guard hasSignature(signature) else {
            throw DBusError.wrongSignature(expected: signature, got: self.signature)
        }
        return true
    }
}
