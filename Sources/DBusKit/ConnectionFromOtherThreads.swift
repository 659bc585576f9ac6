// SPDX-License-Identifier: Apache-2.0
internal import CDBus

/// What threads other than the loop's may do with a connection that a loop runs: libdbus's calls that take the
/// connection's lock (sending, and the unique name), and calls whose replies the loop hands to a `ReplyWaiter`.
/// How the library's shared connection lets tasks call from their own threads, without a C type leaving DBusKit.
package struct ConnectionFromOtherThreads: @unchecked Sendable {
    private let raw: OpaquePointer
    private let awaited: AwaitedReplies

    init(raw: OpaquePointer, awaited: AwaitedReplies) {
        self.raw = raw
        self.awaited = awaited
    }

    /// The connection's unique name on the bus, such as `:1.42`.
    package var uniqueName: String { uniqueBusName(of: raw) }

    /// Sends a method call; its reply, `NoReply` after `timeout`, or `Disconnected` reaches `waiter` on the loop's
    /// thread. False, with nothing sent, once the loop has ended (`AwaitedReplies.closeAll`).
    package func send(_ message: Message, timeout: Duration, for waiter: any ReplyWaiter) -> Bool {
        awaited.send(message, on: raw, timeout: timeout, for: waiter)
    }

    /// Sends a message that wants no reply and writes it out before returning: it still reaches the peer before
    /// any later call of this connection (`dbus_connection_flush`).
    package func sendWithoutReply(_ message: Message) {
        message.expectsReply = false
        _ = DBusKit.send(message, on: raw)
        dbus_connection_flush(raw)
    }
}

extension Connection {
    /// This connection as other threads may use it while its loop runs.
    package var fromOtherThreads: ConnectionFromOtherThreads { ConnectionFromOtherThreads(raw: raw, awaited: awaited) }
}

/// Names the calling thread, as `ps` and `/proc/self/task/*/comm` show it (`prctl(PR_SET_NAME)`): at most 15 bytes.
package func nameCurrentThread(_ name: String) {
    _ = cdbus_name_this_thread(name)
}
