#if DEBUG  // A fuzz target reads internals (@testable), which a debug build alone compiles for: ReleaseBuild.swift.
public import DBusKit

/// Where served objects send in a fuzz target: every message they send, in order.
public final class MessageSink {
    public private(set) var sent: [Message] = []

    public init() {}

    public var send: (Message) -> Void {
        { [unowned self] message in sent.append(message) }
    }

    public func clear() {
        sent = []
    }
}

/// Hands a message to served objects as a connection's router does, and checks what they sent: the oracle that
/// every served object shares.
public enum CallOracle {
    /// Delivers `message` from `sender` to the object at its path, if it is a method call and one is there, and
    /// checks the answer: exactly one reply, to this call and last, when the caller asked for one; none when it
    /// did not; nothing at all for `org.freedesktop.DBus.Peer`, which libdbus answers. Returns what was sent.
    @discardableResult
    public static func deliver(_ message: Message, from sender: BusName, to objects: [ServedObject],
                               sink: MessageSink) -> [Message] {
        sink.clear()
        guard message.type == .methodCall,
              let object = objects.first(where: { message.hasPath($0.path) }) else { return [] }
        message.setSender(sender)
        let disposition = object.handle(message)
        let sent = sink.sent
        let replies = sent.filter { $0.type == .methodReturn || $0.type == .error }
        guard disposition == .handled else {
            fuzzCheck(message.hasInterface(StandardInterface.peer), "only Peer is left to libdbus, not \(describe(message))")
            fuzzCheck(sent.isEmpty, "an unhandled call sent \(sent.count) messages")
            return sent
        }
        guard message.expectsReply else {
            fuzzCheck(replies.isEmpty, "\(describe(message)) asked for no reply and got \(replies.count)")
            return sent
        }
        fuzzCheck(replies.count == 1, "\(describe(message)) got \(replies.count) replies")
        fuzzCheck(sent.last?.type == replies[0].type, "\(describe(message)): signals go out before the reply")
        fuzzCheck(replies[0].replySerial == message.serial, "the reply answers serial \(replies[0].replySerial), not \(message.serial)")
        fuzzCheck(replies[0].destination == sender.rawValue, "the reply goes to \(replies[0].destination ?? "nobody")")
        return sent
    }

    public static func describe(_ message: Message) -> String {
        "\(message.interface ?? "-").\(message.member ?? "-")(\(message.signature)) at \(message.path ?? "-")"
    }
}
#endif
