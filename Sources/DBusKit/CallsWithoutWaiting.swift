// SPDX-License-Identifier: Apache-2.0
import ProgramSupport

extension Connection {
    /// Sends a method call and returns at once; `onReply` runs on the event loop's thread with the reply's
    /// arguments or its error, or with `NoReply` once `timeout` has passed without an answer, after which the
    /// handler is released and a late answer is dropped.
    ///
    /// For calls to peers that may call back before they answer (a tray's watcher, a panel), which a blocking
    /// `call` would leave waiting. The timeout is libdbus's default for calls.
    public func send(
        _ message: Message, timeout: Duration = .seconds(25),
        onReply: @escaping (Result<MessageReader, DBusError>) -> Void
    ) {
        assertOnLoopThread()
        if !awaited.send(message, on: raw, timeout: timeout, for: ReplyHandler(onReply)) {
            onReply(.failure(DBusError(.disconnected, "the connection to the bus is closed")))
        }
    }
}

extension Connection {
    /// Sends a call that a relay passes on (`Message.passedOn`) and returns at once; `onReply` gets the reply
    /// message itself, an error reply included, to pass back whole; it fails only when no reply came (`NoReply`
    /// once `timeout` has passed, or the connection closed).
    public func passOn(
        _ message: Message, timeout: Duration, onReply: @escaping (Result<Message, DBusError>) -> Void
    ) {
        assertOnLoopThread()
        if !awaited.send(message, on: raw, timeout: timeout, for: ReplyMessageHandler(onReply)) {
            onReply(.failure(DBusError(.disconnected, "the connection to the bus is closed")))
        }
    }
}

/// Hands the reply on as it came.
final class ReplyMessageHandler: ReplyWaiter {
    private let handler: (Result<Message, DBusError>) -> Void

    init(_ handler: @escaping (Result<Message, DBusError>) -> Void) {
        self.handler = handler
    }

    func replyArrived(_ result: Result<Message, DBusError>) {
        handler(result)
    }
}
