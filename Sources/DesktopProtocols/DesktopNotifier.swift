public import DBusKit
public import Logging

/// Shows desktop notifications through `org.freedesktop.Notifications`, when a notification server is running.
/// Each new notification replaces the one before, so that repeated clicks do not pile them up.
public final class DesktopNotifier {
    static let serverName: BusName = "org.freedesktop.Notifications"
    static let serverPath: ObjectPath = "/org/freedesktop/Notifications"

    private let connection: Connection
    private let applicationName: String
    private let logger: Logger
    /// The id the server gave the last notification, which the next one replaces; 0 for none.
    private var shownID: UInt32 = 0

    public init(connection: Connection, applicationName: String, logger: Logger) {
        self.connection = connection
        self.applicationName = applicationName
        self.logger = logger
    }

    /// Asks the server to show a notification; does nothing when there is none. Like `notify-send`, it lets the
    /// bus start a server that is installed as a D-Bus service (dunst, mako). The body may hold the markup that
    /// servers read (escape text from elsewhere).
    public func show(summary: String, body: String, iconName: String) {
        let call = Message.methodCall(destination: Self.serverName, path: Self.serverPath,
                                      interface: "org.freedesktop.Notifications", member: "Notify")
        call.appendArguments { arguments in
            arguments.append(applicationName)
            arguments.append(shownID)
            arguments.append(iconName)
            arguments.append(summary)
            arguments.append(body)
            arguments.append([String]())
            arguments.append([String: Variant]())
            // The server's default expiry.
            arguments.append(Int32(-1))
        }
        connection.send(call) { [weak self] result in
            switch result {
            case .success(var reply):
                self?.shownID = (try? reply.read(UInt32.self)) ?? 0
            case .failure(let error) where error.name == .nameHasNoOwner || error.name == .serviceUnknown:
                self?.logger.debug("no notification server is running")
            case .failure(let error):
                self?.logger.warning("the notification server refused the notification: \(error)")
            }
        }
    }
}
