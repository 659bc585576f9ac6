internal import CDBus

/// What a method handler did with a call.
public enum CallDisposition: Sendable {
    /// The handler answered (or the caller wanted no answer).
    case handled
    /// Not for this handler: libdbus answers it (Peer methods, Introspect of parent paths, `UnknownMethod`).
    case notHandled
}

/// A handler for the method calls that reach one object path.
public typealias MethodHandler = (Message) -> CallDisposition

/// Keeps an object's handler alive while libdbus holds the registration; released by libdbus's unregister
/// callback.
private final class ObjectBox {
    let handler: MethodHandler
    init(_ handler: @escaping MethodHandler) { self.handler = handler }
}

extension Connection {
    /// Registers `handler` for method calls to `path` (`dbus_connection_try_register_object_path`).
    ///
    /// libdbus itself answers `org.freedesktop.DBus.Peer`, `Introspect` on the parent paths (listing their
    /// children), and `UnknownMethod` for what the handler leaves unhandled.
    public func register(_ path: ObjectPath, handler: @escaping MethodHandler) throws(DBusError) {
        var vtable = DBusObjectPathVTable()
        vtable.message_function = dispatchToObject
        vtable.unregister_function = releaseObject
        let box = Unmanaged.passRetained(ObjectBox(handler))
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        guard dbus_connection_try_register_object_path(raw, path.rawValue, &vtable, box.toOpaque(), &error) != 0
        else {
            box.release()
            throw DBusError(consuming: &error)
        }
    }

    /// Calls `handler` for every signal that matches `rule`, after asking the bus to deliver them (`AddMatch`).
    public func subscribe(to rule: MatchRule, handler: @escaping (Message) -> Void) throws(DBusError) {
        try addMatch(rule)
        router.subscribe(rule, handler: handler)
    }

    /// Asks the bus to deliver signals that match `rule` (`dbus_bus_add_match`), without routing them: for
    /// clients that read messages with `nextMessage(timeout:)`.
    public func addMatch(_ rule: MatchRule) throws(DBusError) {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        dbus_bus_add_match(raw, rule.description, &error)
        if dbus_error_is_set(&error) != 0 { throw DBusError(consuming: &error) }
    }
}

private func dispatchToObject(
    _ connection: OpaquePointer?, _ message: OpaquePointer?, _ box: UnsafeMutableRawPointer?
) -> DBusHandlerResult {
    guard let message, let box else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    let object = Unmanaged<ObjectBox>.fromOpaque(box).takeUnretainedValue()
    switch object.handler(Message(borrowing: message)) {
    case .handled: return DBUS_HANDLER_RESULT_HANDLED
    case .notHandled: return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }
}

private func releaseObject(_ connection: OpaquePointer?, _ box: UnsafeMutableRawPointer?) {
    guard let box else { return }
    Unmanaged<ObjectBox>.fromOpaque(box).release()
}
