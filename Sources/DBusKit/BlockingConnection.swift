internal import CDBus

/// A connection that many threads may share for calls that wait for their reply, each thread waiting for its own.
///
/// It serves no object, follows no signal and routes no reply, the parts of a connection that belong to one
/// event loop (`Connection`); it only sends and waits. libdbus locks each connection for exactly that
/// (`dbus_threads_init_default`, which `openConnection` calls), which is what makes this type `Sendable`.
public final class BlockingConnection: BlockingCalls, Sendable {
    /// Safe to share: every operation below is one that libdbus does under the connection's own lock.
    private nonisolated(unsafe) let raw: OpaquePointer

    /// Connects and registers with the bus, as `Connection` does.
    public init(bus: Connection.Bus) throws(DBusError) {
        raw = try openConnection(to: bus)
        try sayHello(raw, to: bus)
    }

    deinit {
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
    }

    /// This connection's unique name on the bus, such as `:1.42`.
    public var uniqueName: String { uniqueBusName(of: raw) }

    /// Sends a message and writes it out before returning (`dbus_connection_send`, `dbus_connection_flush`): for
    /// messages that want no answer, which still reach the peer before any later call from this connection.
    public func sendWithoutReply(_ message: Message) {
        message.expectsReply = false
        _ = send(message, on: raw)
        dbus_connection_flush(raw)
    }

    /// Sends a method call and waits for its reply (`dbus_connection_send_with_reply_and_block`); an error reply
    /// is thrown as it is.
    public func call(_ message: Message, timeout: Duration = .seconds(25)) throws(DBusError) -> Message {
        try blockingCall(message, on: raw, timeout: timeout)
    }
}
