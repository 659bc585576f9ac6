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
