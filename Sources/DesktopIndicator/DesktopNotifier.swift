public import DBusKit
public import ProgramSupport

/// Shows desktop notifications through `org.freedesktop.Notifications`, when a notification server is running,
/// from a program's event loop. Each new notification replaces the one before, so that they do not pile up.
public final class DesktopNotifier {
    private let connection: Connection
    private let logger: Logger
    /// The id the server gave the last notification, which the next one replaces; 0 for none.
    private var shownID: UInt32 = 0

    public init(connection: Connection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    /// Asks the server to show `notification` in place of the last one; does nothing when there is no server.
    public func show(_ notification: DesktopNotification) {
        connection.send(notification.notifyCall(replacing: shownID)) { [weak self] result in
            switch result {
            case .success(var reply):
                self?.shownID = (try? reply.read(UInt32.self)) ?? 0
            case .failure(let error) where error.name == .serviceUnknown || error.name == .nameHasNoOwner:
                self?.logger.debug("no notification server is running")
            case .failure(let error):
                self?.logger.warning("the notification server refused the notification: \(error)")
            }
        }
    }
}
