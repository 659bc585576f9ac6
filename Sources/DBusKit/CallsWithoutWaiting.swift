extension Connection {
    /// Sends a method call and returns at once; `onReply` runs on the event loop's thread when the answer arrives,
    /// with the reply's arguments or its error.
    ///
    /// For calls to peers that may call back before they answer (a tray's watcher, a panel), which a blocking
    /// `call` would leave waiting. No timeout of its own: the bus answers with an error for a peer that leaves
    /// without replying, and for one that is not there.
    public func send(_ message: Message, onReply: @escaping (Result<MessageReader, DBusError>) -> Void) {
        let serial = send(message)
        // The loop dispatches on this thread only after this returns, so the reply cannot come first.
        router.awaitReply(to: serial) { reply in
            if let error = reply.error {
                onReply(.failure(error))
            } else {
                onReply(.success(reply.arguments()))
            }
        }
    }
}
