// SPDX-License-Identifier: Apache-2.0
internal import CDBus

/// What a method handler did with a call.
public enum CallDisposition: Sendable {
    /// The handler answered (or the caller wanted no answer).
    case handled
    /// Not for this handler: libdbus answers it (Peer methods, Introspect of parent paths, `UnknownMethod`).
    case notHandled
}

extension Connection {
    /// Routes the method calls to `object`'s path to it; it must send on this connection.
    ///
    /// libdbus itself answers `org.freedesktop.DBus.Peer`, `Introspect` on the parent paths (listing their
    /// children), and `UnknownMethod` for what the object leaves unhandled. The path is also entered in libdbus's
    /// object tree (`dbus_connection_try_register_object_path`), with no handler of its own, so that its parents
    /// list it.
    public func register(_ object: ServedObject) throws(DBusError) {
        assertOnLoopThread()
        var vtable = DBusObjectPathVTable()
        vtable.message_function = leaveToLibdbus
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        guard dbus_connection_try_register_object_path(raw, object.path.rawValue, &vtable, nil, &error) != 0 else {
            throw DBusError(consuming: &error)
        }
        router.register(object)
    }

    /// Calls `handler` for every signal that matches `rule`, after asking the bus to deliver them (`AddMatch`).
    public func subscribe(to rule: MatchRule, handler: @escaping (Message) -> Void) throws(DBusError) {
        assertOnLoopThread()
        try addMatch(rule)
        router.subscribe(rule, handler: handler)
    }

    /// Asks the bus to deliver signals that match `rule` (`dbus_bus_add_match`), without routing them: for
    /// clients that read messages with `nextMessage(timeout:)`.
    public func addMatch(_ rule: MatchRule) throws(DBusError) {
        assertOnLoopThread()
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        noteBlockingCall()
        dbus_bus_add_match(raw, rule.description, &error)
        if dbus_error_is_set(&error) != 0 { throw DBusError(consuming: &error) }
    }
}

/// The router has already offered the call to the object's handler; what reaches the tree is libdbus's to answer.
private func leaveToLibdbus(
    _ connection: OpaquePointer?, _ message: OpaquePointer?, _ data: UnsafeMutableRawPointer?
) -> DBusHandlerResult {
    DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}
