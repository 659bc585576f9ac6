// SPDX-License-Identifier: Apache-2.0
public import DBusKit
import NetworkActivityInterface
public import ProgramSupport

/// Shows desktop notifications through `org.freedesktop.Notifications`, when a notification server is running,
/// from a program's event loop: the one sender of the tray's notifications, its notices and its progress alike.
public final class DesktopNotifier {
    private let connection: Connection
    private let logger: Logger
    /// The id the server gave the last notice, which the next one replaces; 0 for none.
    private var noticeID: UInt32 = 0

    public init(connection: Connection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    /// Shows `notification` in place of the last one this method showed, so that notices do not pile up; does
    /// nothing when there is no server.
    public func show(_ notification: DesktopNotification) {
        show(notification, replacing: noticeID) { [weak self] id in self?.noticeID = id }
    }

    /// Shows `notification` in place of the server's `replaced` (0: as a new one); `shown` gets the server's id
    /// of it.
    public func show(_ notification: DesktopNotification, replacing replaced: UInt32,
                     shown: @escaping (UInt32) -> Void) {
        connection.send(notification.notifyCall(replacing: replaced)) { [weak self] result in
            switch result {
            case .success(var reply):
                if let id = try? NotificationsInterface.notify.readReply(&reply) { shown(id) }
            case .failure(let error) where error.name == .serviceUnknown || error.name == .nameHasNoOwner:
                self?.logger.debug("no notification server is running")
            case .failure(let error):
                self?.logger.warning("the notification server refused the notification: \(error)")
            }
        }
    }

    /// Asks the server its name and whether it offers actions; nil when no server answers.
    public func askServer(_ answer: @escaping ((name: String, offersActions: Bool)?) -> Void) {
        let server = NotificationsInterface.server
        connection.send(NotificationsInterface.getServerInformation.call(on: server)) { [connection] result in
            guard case .success(var reply) = result,
                  let name = try? NotificationsInterface.getServerInformation.readReply(&reply) else {
                answer(nil)
                return
            }
            connection.send(NotificationsInterface.getCapabilities.call(on: server)) { result in
                guard case .success(var reply) = result,
                      let capabilities = try? NotificationsInterface.getCapabilities.readReply(&reply) else {
                    answer((name, false))
                    return
                }
                answer((name, capabilities.contains("actions")))
            }
        }
    }

    /// Calls `action` with a notification's id and the action's key each time one of its actions is clicked.
    public func onAction(_ action: @escaping (UInt32, String) -> Void) throws(DBusError) {
        try connection.subscribe(to: NotificationsInterface.actionInvoked.rule()) { signal in
            guard let (id, key) = try? NotificationsInterface.actionInvoked.read(signal) else { return }
            action(id, key)
        }
    }
}
