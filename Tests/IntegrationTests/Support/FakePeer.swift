import DBusKit
import ServiceHarness

/// A desktop component that the test plays itself (a panel's StatusNotifierWatcher, a notification server): it
/// owns a name on the private bus, answers the calls it is given answers for, and records every call and signal
/// it receives, in order. Closing its connection (dropping it) is the component exiting.
final class FakePeer {
    let connection: Connection
    private let answers: [String: (Message) -> Message]
    private(set) var calls: [Message] = []
    private(set) var signals: [Message] = []
    /// What the component sends just before it answers a call.
    var beforeAnswering: (FakePeer, Message) -> Void = { _, _ in }

    /// - Parameters:
    ///   - signalsOf: match rules for the signals it should receive.
    ///   - answers: by member, the reply to a call; other calls get `UnknownMethod`.
    init(_ bus: PrivateBus, owning name: BusName, signalsOf rules: [MatchRule] = [],
         answers: [String: (Message) -> Message]) throws {
        connection = try Connection(bus: .address(bus.address))
        self.answers = answers
        for rule in rules { try connection.addMatch(rule) }
        guard try connection.requestName(name, flags: .doNotQueue) == .primaryOwner else {
            throw TestFailure("\(name) is owned already")
        }
    }

    /// Reads messages until one satisfies `matches` and returns it, answering calls on the way; throws, naming
    /// what it saw, when none comes within `timeout`.
    @discardableResult
    func awaitMessage(_ what: String, timeout: Duration = .seconds(10), _ matches: (Message) -> Bool) throws
        -> Message
    {
        let deadline = ContinuousClock.now + timeout
        while let message = try connection.nextMessage(timeout: ContinuousClock.now.duration(to: deadline)) {
            record(message)
            if matches(message) { return message }
        }
        throw TestFailure("no \(what) within \(timeout); calls: \(calls.compactMap(\.member)), "
                          + "signals: \(signals.compactMap(\.member))")
    }

    @discardableResult
    func awaitCall(_ member: String, timeout: Duration = .seconds(10)) throws -> Message {
        try awaitMessage("call of \(member)", timeout: timeout) { $0.type == .methodCall && $0.member == member }
    }

    @discardableResult
    func awaitSignal(_ member: String, timeout: Duration = .seconds(10)) throws -> Message {
        try awaitMessage("signal \(member)", timeout: timeout) { $0.type == .signal && $0.member == member }
    }

    /// Waits until the bus says that `name` has no owner any more.
    func awaitRelease(of name: String, timeout: Duration = .seconds(10)) throws {
        try awaitMessage("release of \(name)", timeout: timeout) { message in
            guard message.member == "NameOwnerChanged" else { return false }
            var arguments = message.arguments()
            guard (try? arguments.read(String.self)) == name else { return false }
            arguments.skip()
            return (try? arguments.read(String.self)) == ""
        }
    }

    /// Takes in whatever has arrived by now, without waiting: a round trip to the bus first, so that every
    /// message sent to this peer before the call is in.
    func settle() throws {
        _ = try connection.nameOwner(of: Connection.busDriverName)
        while let message = try connection.nextMessage(timeout: .zero) { record(message) }
    }

    private func record(_ message: Message) {
        switch message.type {
        case .methodCall:
            calls.append(message)
            beforeAnswering(self, message)
            let reply = answers[message.member ?? ""]?(message)
                ?? message.makeErrorReply(DBusError(.unknownMethod, "\(message.member ?? "") is not played"))
            if message.expectsReply { connection.send(reply) }
        case .signal:
            signals.append(message)
        default:
            break
        }
    }
}
