public import DBusKit

extension Connection {
    /// Reads messages until a call of `member` comes, for a test that plays a peer; nil when none does within
    /// `timeout`.
    public func awaitCall(_ member: String, timeout: Duration = .seconds(10)) throws(DBusError) -> Message? {
        let deadline = ContinuousClock.now + timeout
        while let message = try nextMessage(timeout: ContinuousClock.now.duration(to: deadline)) {
            if message.type == .methodCall, message.member == member { return message }
        }
        return nil
    }
}
