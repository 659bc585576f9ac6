// SPDX-License-Identifier: Apache-2.0
internal import CDBus
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ProgramSupport

/// A private connection to a message bus that serves objects, follows signals and routes replies; owns the
/// libdbus `DBusConnection`, which it closes and releases on deinit.
///
/// It is not `Sendable`: one thread owns it. Once an `EventLoop` runs it, that is the loop's thread, and every
/// use from another thread stops the program in debug builds, since its handlers, subscriptions and pending
/// replies are the loop's alone. A short-lived program that makes a call or two uses its blocking `call`, with no
/// loop at all.
public final class Connection {
    /// Which bus to connect to.
    public enum Bus: Sendable, Hashable {
        /// `DBUS_SESSION_BUS_ADDRESS`, as `dbus_bus_get_private(DBUS_BUS_SESSION)` finds it.
        case session
        /// The system bus.
        case system
        /// Any bus address, such as `unix:path=/tmp/bus`.
        case address(String)
    }

    package let raw: OpaquePointer
    let router: MessageRouter
    /// The calls whose replies the connection awaits, sent from any thread; the loop that runs it watches their
    /// timer.
    package let awaited = AwaitedReplies()
    /// Messages sent by `writeWithoutReading`, which numbers them itself.
    var writtenWithoutReading: UInt32 = 0
    /// How many blocking calls have been made: each may have read messages into the queue, which the event loop
    /// then dispatches before it sleeps.
    private(set) var blockingCalls = 0
    /// The thread of the event loop that runs this connection, once it runs.
    private var loopThread: pthread_t?
    /// Whether an `EventLoop` has been made for this connection.
    var hasEventLoop = false

    /// Connects and registers with the bus (`dbus_bus_get_private` or `dbus_connection_open_private` followed
    /// by `dbus_bus_register`). Exit-on-disconnect is off: a lost bus is reported by `EventLoop.run()`.
    public init(bus: Bus) throws(DBusError) {
        raw = try openConnection(to: bus)
        router = MessageRouter(awaiting: awaited)
        // The registration uses the connection, so the handle must be released if it fails: from here on
        // deinit owns it.
        router.install(on: raw)
        try sayHello(raw, to: bus)
    }

    deinit {
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
    }

    /// This connection's unique name on the bus, such as `:1.42`.
    public var uniqueName: String {
        assertOnLoopThread()
        return uniqueBusName(of: raw)
    }

    /// Whether the connection is still open.
    public var isConnected: Bool { dbus_connection_get_is_connected(raw) != 0 }

    /// Queues a message for sending (`dbus_connection_send`); libdbus writes it out at once when the socket
    /// takes it, and the event loop writes what is left. Returns the serial it gave the message, which its reply
    /// will name (`Message.replySerial`). Sending only writes: nothing is read from the bus until asked.
    @discardableResult
    public func send(_ message: Message) -> UInt32 {
        assertOnLoopThread()
        return DBusKit.send(message, on: raw)
    }

    /// Writes every queued message out, blocking until it is done (`dbus_connection_flush`).
    public func flush() {
        assertOnLoopThread()
        dbus_connection_flush(raw)
    }

    /// Sends a method call and waits for its reply (`dbus_connection_send_with_reply_and_block`); an error reply
    /// is thrown as it is. Messages that arrive meanwhile stay queued for later.
    public func call(_ message: Message, timeout: Duration = .seconds(25)) throws(DBusError) -> Message {
        assertOnLoopThread()
        noteBlockingCall()
        return try blockingCall(message, on: raw, timeout: timeout)
    }

    /// Counts a call that blocks until its reply, which reads into the queue what arrives meanwhile: the loop
    /// dispatches that before it sleeps (`EventLoop.run`). Every blocking call of libdbus's goes through here, its
    /// `dbus_bus_*` calls to the bus included.
    func noteBlockingCall() {
        blockingCalls &+= 1
    }

    /// Waits up to `timeout` for the next incoming message and takes it out of the queue without dispatching
    /// it (`dbus_connection_pop_message`): for clients that read signals in order, not for a running loop.
    public func nextMessage(timeout: Duration) throws(DBusError) -> Message? {
        assertOnLoopThread()
        let deadline = MonotonicTime.now + timeout
        while true {
            if let message = dbus_connection_pop_message(raw) {
                return Message(owning: message)
            }
            let left = MonotonicTime.now.duration(to: deadline)
            guard left > .zero else { return nil }
            guard dbus_connection_read_write(raw, Int32(clamping: max(1, left.milliseconds))) != 0 else {
                throw DBusError(.disconnected, "the connection to the bus is closed")
            }
        }
    }

    /// Waits for the next incoming message, or until `other` becomes readable, whichever comes first; nil when
    /// `other` did. For a client with no loop that waits on the bus and on something else at once, such as a
    /// child process's descriptor.
    public func nextMessage(orUntilReadable other: Int32) throws(DBusError) -> Message? {
        assertOnLoopThread()
        var socket: Int32 = -1
        while true {
            if let message = dbus_connection_pop_message(raw) {
                return Message(owning: message)
            }
            guard dbus_connection_get_unix_fd(raw, &socket) != 0 else {
                throw DBusError(.disconnected, "the connection to the bus is closed")
            }
            var descriptors = [pollfd(fd: other, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: socket, events: Int16(POLLIN), revents: 0)]
            guard poll(&descriptors, 2, -1) >= 0 else {
                guard errno == EINTR else { throw DBusError(.failed, "poll failed: errno \(errno)") }
                continue
            }
            if descriptors[0].revents != 0 { return nil }
            guard dbus_connection_read_write(raw, 0) != 0 else {
                throw DBusError(.disconnected, "the connection to the bus is closed")
            }
        }
    }

    // MARK: Event-loop plumbing

    /// Dispatches every complete message in the incoming queue to the filters and object handlers.
    func dispatchAll() {
        assertOnLoopThread()
        while dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {}
    }

    /// Makes the calling thread, the event loop's, the only one that may use the connection from now on.
    func bindToLoopThread() {
        assertOnLoopThread()
        loopThread = pthread_self()
    }

    /// Stops a debug build when the connection is used off its loop's thread; costs nothing in a release build,
    /// where `assert` is compiled out.
    @inline(__always)
    func assertOnLoopThread(_ function: StaticString = #function) {
        assert(loopThread.map { pthread_equal($0, pthread_self()) != 0 } ?? true,
               "Connection.\(function) was used off the thread of the event loop that runs it")
    }
}

// MARK: What both kinds of connection do with libdbus

/// Opens a private connection to `bus` (`dbus_bus_get_private`, `dbus_connection_open_private`), with
/// exit-on-disconnect off. libdbus's locks are set up first, so that the connection may be shared by threads.
func openConnection(to bus: Connection.Bus) throws(DBusError) -> OpaquePointer {
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
    dbus_connection_set_exit_on_disconnect(opened, 0)
    return opened
}

/// Says Hello to a bus opened by address (`dbus_bus_register`); `dbus_bus_get_private` has done so for the others.
func sayHello(_ raw: OpaquePointer, to bus: Connection.Bus) throws(DBusError) {
    guard case .address = bus else { return }
    var error = CDBus.DBusError()
    dbus_error_init(&error)
    if dbus_bus_register(raw, &error) == 0 { throw DBusError(consuming: &error) }
}

package func uniqueBusName(of raw: OpaquePointer) -> String {
    dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? ""
}

package func send(_ message: Message, on raw: OpaquePointer) -> UInt32 {
    var serial: UInt32 = 0
    guard dbus_connection_send(raw, message.raw, &serial) != 0 else {
        fatalError("libdbus is out of memory sending a message")
    }
    return serial
}

func blockingCall(_ message: Message, on raw: OpaquePointer, timeout: Duration) throws(DBusError) -> Message {
    var error = CDBus.DBusError()
    dbus_error_init(&error)
    guard let reply = dbus_connection_send_with_reply_and_block(
        raw, message.raw, Int32(clamping: timeout.milliseconds), &error)
    else { throw DBusError(consuming: &error) }
    return Message(owning: reply)
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
        let perMillisecond: Int64 = 1_000_000_000_000_000
        let (whole, attosecondsLeft): (Int64, Int64)
        // Waits shorter than 9 s, the loop's usual ones, in 64-bit arithmetic: `components` divides 128-bit
        // attoseconds on every turn.
        if let attoseconds = Int64(exactly: attoseconds) {
            (whole, attosecondsLeft) = attoseconds.quotientAndRemainder(dividingBy: perMillisecond)
        } else {
            let (seconds, attoseconds) = components
            (whole, attosecondsLeft) = (seconds * 1000 + attoseconds / perMillisecond, attoseconds % perMillisecond)
        }
        return attosecondsLeft > 0 ? whole + 1 : whole
    }
}
