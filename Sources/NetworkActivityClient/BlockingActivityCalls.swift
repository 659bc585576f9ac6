// SPDX-License-Identifier: Apache-2.0
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
            connection = try Connection(bus: bus)
        } catch {
            throw NetworkActivityError(error)
        }
        self.timeout = timeout
    }

    /// Begins an activity, with a deadline when `seconds` is given.
    package func begin(_ label: String, seconds: UInt32?) throws(NetworkActivityError) -> ActivityID {
        try call(try .begin(label, seconds: seconds))
    }

    package func end(_ id: ActivityID) throws(NetworkActivityError) {
        _ = try call(.end(id))
    }

    package func setProgress(_ id: ActivityID, percent: UInt32) throws(NetworkActivityError) {
        _ = try call(.setProgress(id, percent: percent))
    }

    package func setTransfer(_ id: ActivityID, done: UInt64, total: UInt64?) throws(NetworkActivityError) {
        _ = try call(.setTransfer(id, done: done, total: total))
    }

    package func setCancellable(_ id: ActivityID) throws(NetworkActivityError) {
        _ = try call(.setCancellable(id))
    }

    package func requestCancel(_ id: ActivityID) throws(NetworkActivityError) {
        _ = try call(.requestCancel(id))
    }

    /// Waits until `fileDescriptor` is readable (a child process's, when it exits), or until a request to stop
    /// `id` comes first; returns whether one did. A connection that is lost meanwhile leaves only the descriptor
    /// to wait for.
    package func awaitCancelRequest(for id: ActivityID, orReadable fileDescriptor: Int32) -> Bool {
        // The bus delivers a signal addressed here whoever sent it: only the service's own counts.
        var service = try? connection.nameOwner(of: ServiceNames.busName)
        while let message = try? connection.nextMessage(orUntilReadable: fileDescriptor) {
            guard ServiceMembers.cancelRequested.matches(message), let sender = message.sender else { continue }
            // A service started again since (it takes the activity over) has another unique name.
            if sender != service { service = try? connection.nameOwner(of: ServiceNames.busName) }
            guard sender == service else { continue }
            if (try? ServiceMembers.cancelRequested.read(message)) == id.rawValue { return true }
        }
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, -1) < 0, errno == EINTR {}
        return false
    }

    /// Makes `call` and blocks until its reply, read as the call says.
    private func call<Value>(_ call: ServiceCall<Value>) throws(NetworkActivityError) -> Value {
        do throws(DBusError) {
            return try connection.call(call, timeout: timeout)
        } catch {
            throw NetworkActivityError(error)
        }
    }
}
