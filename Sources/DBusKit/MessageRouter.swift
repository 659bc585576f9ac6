// SPDX-License-Identifier: Apache-2.0
internal import CDBus
import ProgramSupport

/// Routes incoming method calls to the objects registered at their paths, signals to subscriptions and replies to
/// the calls that wait for them (`AwaitedReplies`), and notices the end of the connection. One per connection, installed as a libdbus
/// filter (`dbus_connection_add_filter`) that holds it retained until libdbus frees the filter with the connection.
///
/// Calls reach their object here, by one comparison of the path, rather than through libdbus's object tree,
/// which splits every path it dispatches into newly allocated components.
final class MessageRouter {
    /// Held here: the connection keeps what it serves.
    private var objects: [ServedObject] = []
    private var subscriptions: [(rule: MatchRule, handler: (Message) -> Void)] = []
    /// The calls the connection awaits the replies to.
    private let awaited: AwaitedReplies
    var disconnectHandler: (() -> Void)?

    init(awaiting awaited: AwaitedReplies) {
        self.awaited = awaited
    }

    func install(on connection: OpaquePointer) {
        let box = Unmanaged.passRetained(self).toOpaque()
        guard dbus_connection_add_filter(connection, routeMessage, box, releaseRouter) != 0 else {
            fatalError("libdbus is out of memory adding a filter")
        }
    }

    func subscribe(_ rule: MatchRule, handler: @escaping (Message) -> Void) {
        subscriptions.append((rule, handler))
    }

    func register(_ object: ServedObject) {
        objects.append(object)
    }

    fileprivate func routeCall(_ raw: OpaquePointer) -> CallDisposition {
        guard let index = objects.firstIndex(where: { dbus_message_has_path(raw, $0.path.rawValue) != 0 }) else {
            return .notHandled
        }
        return objects[index].handle(Message(borrowing: raw))
    }

    /// Whether the reply answered a call that this connection awaits (`AwaitedReplies`).
    fileprivate func routeReply(_ raw: OpaquePointer) -> Bool {
        awaited.deliver(raw)
    }

    fileprivate func routeSignal(_ message: Message) {
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

/// Signals are seen here and still passed on, so that other filters get every message; a call that no object
/// handles goes on to libdbus, which answers it with `UnknownMethod` or, for a parent path, `Introspect`. libdbus
/// answers those even when the caller asked for no reply, so such calls end here.
private func routeMessage(
    _ connection: OpaquePointer?, _ message: OpaquePointer?, _ box: UnsafeMutableRawPointer?
) -> DBusHandlerResult {
    guard let message, let box else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    let router = Unmanaged<MessageRouter>.fromOpaque(box).takeUnretainedValue()
    switch dbus_message_get_type(message) {
    case CDBUS_MESSAGE_TYPE_METHOD_CALL:
        if router.routeCall(message) == .handled || dbus_message_get_no_reply(message) != 0 {
            return DBUS_HANDLER_RESULT_HANDLED
        }
    case CDBUS_MESSAGE_TYPE_SIGNAL:
        router.routeSignal(Message(borrowing: message))
    case CDBUS_MESSAGE_TYPE_METHOD_RETURN, CDBUS_MESSAGE_TYPE_ERROR:
        if router.routeReply(message) { return DBUS_HANDLER_RESULT_HANDLED }
    default:
        break
    }
    return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}

private func releaseRouter(_ box: UnsafeMutableRawPointer?) {
    guard let box else { return }
    Unmanaged<MessageRouter>.fromOpaque(box).release()
}
