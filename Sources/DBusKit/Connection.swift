internal import CDBus

/// A private connection to a message bus; owns the libdbus `DBusConnection`, which it closes and releases on
/// deinit.
///
/// A connection that runs an `EventLoop` belongs to the loop's thread. One that runs no loop may be shared:
/// libdbus locks its connections (`dbus_threads_init_default`), so `send` and `call` may be used from several
/// threads at once, each call waiting for its own reply.
public final class Connection {
    /// Which bus to connect to.
    public enum Bus: Sendable, Equatable {
        /// `DBUS_SESSION_BUS_ADDRESS`, as `dbus_bus_get_private(DBUS_BUS_SESSION)` finds it.
        case session
        /// The system bus.
        case system
        /// Any bus address, such as `unix:path=/tmp/bus`.
        case address(String)
    }

    let raw: OpaquePointer
    let router: MessageRouter
    /// Messages sent by `writeWithoutReading`, which numbers them itself.
    var writtenWithoutReading: UInt32 = 0

    /// Connects and registers with the bus (`dbus_bus_get_private` or `dbus_connection_open_private` followed
    /// by `dbus_bus_register`). Exit-on-disconnect is off: a lost bus is reported by `EventLoop.run()`.
    public init(bus: Bus) throws(DBusError) {
        guard dbus_threads_init_default() != 0 else { fatalError("libdbus is out of memory setting up its locks") }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        let opened: OpaquePointer?
        switch bus {
        case .session: opened = dbus_bus_get_private(DBUS_BUS_SESSION, &error)
        case .system: opened = dbus_bus_get_private(DBUS_BUS_SYSTEM, &error)
        case .address(let address): opened = dbus_connection_open_private(address, &error)
        }
        guard let opened else { throw DBusError(consuming: &error) }
        raw = opened
        dbus_connection_set_exit_on_disconnect(raw, 0)
        router = MessageRouter()
        // The registration uses the connection, so the handle must be released if it fails: from here on
        // deinit owns it.
        router.install(on: raw)
        if case .address = bus, dbus_bus_register(raw, &error) == 0 {
            throw DBusError(consuming: &error)
        }
    }

    deinit {
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
    }

    /// This connection's unique name on the bus, such as `:1.42`.
    public var uniqueName: String {
        dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? ""
    }

    /// Whether the connection is still open.
    public var isConnected: Bool { dbus_connection_get_is_connected(raw) != 0 }

    /// Queues a message for sending (`dbus_connection_send`); libdbus writes it out at once when the socket
    /// takes it, and the event loop writes what is left. Returns the serial it gave the message, which its reply
    /// will name (`Message.replySerial`). Sending only writes: nothing is read from the bus until asked.
    @discardableResult
    public func send(_ message: Message) -> UInt32 {
        var serial: UInt32 = 0
        guard dbus_connection_send(raw, message.raw, &serial) != 0 else {
            fatalError("libdbus is out of memory sending a message")
        }
        return serial
    }

    /// Writes every queued message out, blocking until it is done (`dbus_connection_flush`).
    public func flush() {
        dbus_connection_flush(raw)
    }

    /// Sends a method call and waits for its reply (`dbus_connection_send_with_reply_and_block`); an error reply
    /// is thrown as it is. Messages that arrive meanwhile stay queued for later.
    public func call(_ message: Message, timeout: Duration = .seconds(25)) throws(DBusError) -> Message {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        guard let reply = dbus_connection_send_with_reply_and_block(
            raw, message.raw, Int32(clamping: timeout.milliseconds), &error)
        else { throw DBusError(consuming: &error) }
        return Message(owning: reply)
    }

    /// Sends a method call and returns a reader of its reply's arguments.
    public func call(
        destination: BusName, path: ObjectPath, interface: InterfaceName, member: MemberName,
        timeout: Duration = .seconds(25), arguments: (inout MessageWriter) -> Void = { _ in }
    ) throws(DBusError) -> MessageReader {
        let message = Message.methodCall(destination: destination, path: path, interface: interface, member: member)
        message.appendArguments(arguments)
        return try call(message, timeout: timeout).arguments()
    }

    /// Waits up to `timeout` for the next incoming message and takes it out of the queue without dispatching
    /// it (`dbus_connection_pop_message`): for clients that read signals in order, not for a running loop.
    public func nextMessage(timeout: Duration) throws(DBusError) -> Message? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let message = dbus_connection_pop_message(raw) {
                return Message(owning: message)
            }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            guard dbus_connection_read_write(raw, Int32(clamping: max(1, left.milliseconds))) != 0 else {
                throw DBusError(.disconnected, "the connection to the bus is closed")
            }
        }
    }

    // MARK: Event-loop plumbing

    /// Dispatches every complete message in the incoming queue to the filters and object handlers.
    func dispatchAll() {
        while dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {}
    }
}

extension DBusError {
    /// Takes the name and message out of a libdbus error and frees it.
    init(consuming error: inout CDBus.DBusError) {
        defer { dbus_error_free(&error) }
        let name = error.name.map { String(cString: $0) } ?? ErrorName.failed.rawValue
        let message = error.message.map { String(cString: $0) } ?? ""
        self.init((try? ErrorName(name)) ?? .failed, message)
    }
}

extension Duration {
    /// Whole milliseconds, rounded up, so that a wait is never shorter than asked for.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        let ms = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return attoseconds % 1_000_000_000_000_000 > 0 ? ms + 1 : ms
    }
}
