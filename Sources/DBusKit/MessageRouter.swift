internal import CDBus

/// Routes incoming signals to subscriptions and notices the end of the connection. One per connection,
/// installed as a libdbus filter (`dbus_connection_add_filter`) that holds it retained until libdbus frees the
/// filter with the connection.
final class MessageRouter {
    private var subscriptions: [(rule: MatchRule, handler: (Message) -> Void)] = []
    var disconnectHandler: (() -> Void)?

    func install(on connection: OpaquePointer) {
        let box = Unmanaged.passRetained(self).toOpaque()
        guard dbus_connection_add_filter(connection, routeMessage, box, releaseRouter) != 0 else {
            fatalError("libdbus is out of memory adding a filter")
        }
    }

    func subscribe(_ rule: MatchRule, handler: @escaping (Message) -> Void) {
        subscriptions.append((rule, handler))
    }

    fileprivate func route(_ message: Message) {
        if message.isSignal(interface: localInterface, member: "Disconnected") {
            disconnectHandler?()
            return
        }
        for subscription in subscriptions where subscription.rule.matches(message) {
            subscription.handler(message)
        }
    }
}

private let localInterface: InterfaceName = "org.freedesktop.DBus.Local"

/// Signals are seen here and still passed on, so that object handlers and other filters get every message.
private func routeMessage(
    _ connection: OpaquePointer?, _ message: OpaquePointer?, _ box: UnsafeMutableRawPointer?
) -> DBusHandlerResult {
    guard let message, let box, dbus_message_get_type(message) == CDBUS_MESSAGE_TYPE_SIGNAL else {
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }
    Unmanaged<MessageRouter>.fromOpaque(box).takeUnretainedValue().route(Message(borrowing: message))
    return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}

private func releaseRouter(_ box: UnsafeMutableRawPointer?) {
    guard let box else { return }
    Unmanaged<MessageRouter>.fromOpaque(box).release()
}
