public import DBusKit

/// A desktop notification, as `org.freedesktop.Notifications.Notify` takes it.
public struct DesktopNotification: Sendable, Equatable {
    static let serverName: BusName = "org.freedesktop.Notifications"
    static let serverPath: ObjectPath = "/org/freedesktop/Notifications"
    static let serverInterface: InterfaceName = "org.freedesktop.Notifications"

    /// How servers rank it (the hint `urgency`): a critical one stays until the user closes it.
    public enum Urgency: UInt8, Sendable {
        case low = 0, normal = 1, critical = 2
    }

    public var applicationName: String
    public var iconName: String
    public var summary: String
    /// Servers may read it as markup: escape text from elsewhere.
    public var body: String
    public var urgency: Urgency

    public init(applicationName: String, iconName: String, summary: String, body: String,
                urgency: Urgency = .normal) {
        self.applicationName = applicationName
        self.iconName = iconName
        self.summary = summary
        self.body = body
        self.urgency = urgency
    }

    /// The `Notify` call that shows it, in place of the notification `replacedID` (0 for none). Like
    /// `notify-send`, it lets the bus start a server that is installed as a D-Bus service (dunst, mako).
    public func notifyCall(replacing replacedID: UInt32 = 0) -> Message {
        let call = Message.methodCall(destination: Self.serverName, path: Self.serverPath,
                                      interface: Self.serverInterface, member: "Notify")
        call.appendArguments { arguments in
            arguments.append(applicationName)
            arguments.append(replacedID)
            arguments.append(iconName)
            arguments.append(summary)
            arguments.append(body)
            arguments.append([String]())
            arguments.append(["urgency": Variant(urgency.rawValue)])
            // The server's default expiry.
            arguments.append(Int32(-1))
        }
        return call
    }
}
