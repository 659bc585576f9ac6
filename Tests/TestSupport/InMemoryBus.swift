public import DBusKit
import Testing

/// Stands in for the bus around served objects, for the adapters' unit tests: numbers each call and names its
/// sender, as the bus does, and keeps every message the objects send, replies and signals alike, in order.
public final class InMemoryBus {
    /// Everything sent since the last call began or `clear()`.
    public private(set) var sent: [Message] = []
    private var serial: UInt32 = 0

    public init() {}

    /// What a served object sends through; it keeps the messages here.
    public var send: (Message) -> Void {
        { [unowned self] message in sent.append(message) }
    }

    /// What `object` sends for one call of `member` from `sender`: the reply (none if `expectsReply` is false)
    /// and any signals before it.
    public func call(
        _ object: ServedObject, _ interface: InterfaceName?, _ member: MemberName, from sender: BusName = ":1.1",
        expectsReply: Bool = true, _ arguments: (inout MessageWriter) -> Void = { _ in }
    ) -> [Message] {
        let call = Message.methodCall(destination: nil, path: object.path, interface: interface, member: member)
        call.appendArguments(arguments)
        serial += 1
        call.serial = serial
        call.setSender(sender)
        call.expectsReply = expectsReply
        sent = []
        #expect(object.handle(call) == .handled)
        return sent
    }

    /// The reply of a call, which must come last and be the only one.
    public func reply(
        _ object: ServedObject, _ interface: InterfaceName?, _ member: MemberName, from sender: BusName = ":1.1",
        _ arguments: (inout MessageWriter) -> Void = { _ in }
    ) throws -> Message {
        let messages = call(object, interface, member, from: sender, arguments)
        let replies = messages.filter { $0.type == .methodReturn || $0.type == .error }
        try #require(replies.count == 1, "\(member) got \(replies.count) replies")
        #expect(messages.last?.type == replies[0].type, "signals go out before the reply")
        return replies[0]
    }

    /// The error name of a call's reply; nil when it succeeded.
    public func errorName(
        _ object: ServedObject, _ interface: InterfaceName?, _ member: MemberName, from sender: BusName = ":1.1",
        _ arguments: (inout MessageWriter) -> Void = { _ in }
    ) throws -> String? {
        try reply(object, interface, member, from: sender, arguments).errorName
    }

    /// Forgets what was sent, to see what an event outside a call sends.
    public func clear() {
        sent = []
    }

    /// The signals among what was sent since the last call or `clear()`.
    public var signals: [Message] { sent.filter { $0.type == .signal } }
}
