internal import DBusKit
internal import NetworkActivityInterface
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `Begin`, `BeginWithTimeout` and `End` as calls that block the calling thread, on a `Connection` with no loop,
/// for a process that makes one or two calls and exits: the command's `begin`, `end` and `run`. They fail as
/// `NetworkActivityClient`'s calls do, with the same errors, but start no loop thread and wake no executor, which
/// for a program that lives 3 ms would cost it the guard on its start (docs/performance.md). Activities begun here
/// belong to this connection's name, and end with it, timed ones excepted.
package final class BlockingActivityCalls {
    private let connection: Connection
    private let timeout: Duration

    package init(bus: NetworkActivityClient.Bus, timeout: Duration = .seconds(5)) throws(NetworkActivityError) {
        do throws(DBusError) {
            connection = try Connection(bus: bus.connectionBus)
        } catch {
            throw NetworkActivityError(error)
        }
        self.timeout = timeout
    }

    /// Begins an activity, with a deadline when `seconds` is given.
    package func begin(_ label: String, seconds: UInt32?) throws(NetworkActivityError) -> ActivityID {
        try call(try Message.beginCall(label, seconds: seconds)) { reply throws(DBusError) in
            ActivityID(rawValue: try reply.read(UInt32.self))
        }
    }

    package func end(_ id: ActivityID) throws(NetworkActivityError) {
        try call(.serviceCall("End") { $0.append(id.rawValue) }) { _ throws(DBusError) in }
    }

    package func setProgress(_ id: ActivityID, percent: UInt32) throws(NetworkActivityError) {
        try call(.serviceCall("SetProgress") { $0.append(id.rawValue); $0.append(percent) }) { _ throws(DBusError) in }
    }

    package func setTransfer(_ id: ActivityID, done: UInt64, total: UInt64?) throws(NetworkActivityError) {
        try call(.serviceCall("SetTransfer") { arguments in
            arguments.append(id.rawValue)
            arguments.append(done)
            arguments.append(total ?? 0)
        }) { _ throws(DBusError) in }
    }

    package func setCancellable(_ id: ActivityID) throws(NetworkActivityError) {
        try call(.serviceCall("SetCancellable") { $0.append(id.rawValue); $0.append(true) }) { _ throws(DBusError) in }
    }

    package func requestCancel(_ id: ActivityID) throws(NetworkActivityError) {
        try call(.serviceCall("RequestCancel") { $0.append(id.rawValue) }) { _ throws(DBusError) in }
    }

    /// Waits until `fileDescriptor` is readable (a child process's, when it exits), or until a request to stop
    /// `id` comes first; returns whether one did. A connection that is lost meanwhile leaves only the descriptor
    /// to wait for.
    package func awaitCancelRequest(for id: ActivityID, orReadable fileDescriptor: Int32) -> Bool {
        // The bus delivers a signal addressed here whoever sent it: only the service's own counts.
        var service = try? connection.nameOwner(of: ServiceNames.busName)
        while let message = try? connection.nextMessage(orUntilReadable: fileDescriptor) {
            guard message.isSignal(interface: ServiceNames.interface, member: ServiceNames.cancelRequested),
                  let sender = message.sender else { continue }
            // A service started again since (it takes the activity over) has another unique name.
            if sender != service { service = try? connection.nameOwner(of: ServiceNames.busName) }
            guard sender == service else { continue }
            var arguments = message.arguments()
            if (try? arguments.read(UInt32.self)) == id.rawValue { return true }
        }
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, -1) < 0, errno == EINTR {}
        return false
    }

    private func call<Value>(
        _ message: Message, decode: (inout MessageReader) throws(DBusError) -> Value
    ) throws(NetworkActivityError) -> Value {
        do throws(DBusError) {
            var reply = try connection.call(message, timeout: timeout).arguments()
            return try decode(&reply)
        } catch {
            throw NetworkActivityError(error)
        }
    }
}
