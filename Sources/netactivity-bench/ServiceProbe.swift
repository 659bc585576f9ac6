import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness

/// A watching connection that reads everything the service sends it in order: each question is answered only
/// after every signal the service sent before its answer has been seen. So the last `VisibilityChanged` it saw
/// can be compared with `Visible` exactly, with no settling time.
final class ServiceProbe {
    let connection: Connection
    /// The value of the last `VisibilityChanged` seen, nil before the first.
    private(set) var lastVisibilitySignal: Bool?
    /// How many `VisibilityChanged(true)` and `(false)` have been seen.
    private(set) var visibilitySignals = (shown: 0, hidden: 0)

    init(_ bus: PrivateBus) throws {
        connection = try bus.connect()
        try connection.addMatch(MatchRule(sender: ServiceNames.busName, path: ServiceNames.objectPath,
                                          interface: ServiceNames.interface, member: ServiceNames.visibilityChanged))
    }

    /// Sends `call` and returns its reply (or error reply), noting the signals that came before it.
    func ask(_ call: Message, timeout: Duration = .seconds(10)) throws -> Message {
        let serial = connection.send(call)
        let deadline = ContinuousClock.now + timeout
        while let message = try connection.nextMessage(timeout: ContinuousClock.now.duration(to: deadline)) {
            if message.replySerial == serial, message.type == .methodReturn || message.type == .error {
                return message
            }
            note(message)
        }
        throw BenchFailure("the service did not answer \(call.member ?? "a call") within \(timeout)")
    }

    /// Reads the signals that have arrived, waiting up to `timeout` for the first.
    func takeSignals(waiting timeout: Duration) throws {
        var wait = timeout
        while let message = try connection.nextMessage(timeout: wait) {
            note(message)
            wait = .zero
        }
    }

    /// Waits until `condition` holds, checking it again whenever a signal arrives and at least every 50 ms.
    func await(_ what: String, timeout: Duration, until condition: () throws -> Bool) throws {
        let deadline = ContinuousClock.now + timeout
        while try !condition() {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw BenchFailure("\(what) did not happen within \(timeout)") }
            try takeSignals(waiting: min(left, .milliseconds(50)))
        }
    }

    private func note(_ message: Message) {
        guard message.isSignal(interface: ServiceNames.interface, member: ServiceNames.visibilityChanged) else { return }
        var reader = message.arguments()
        guard let visible = try? reader.read(Bool.self) else { return }
        lastVisibilitySignal = visible
        if visible { visibilitySignals.shown += 1 } else { visibilitySignals.hidden += 1 }
    }

    // MARK: The service's state

    func property<Value: DBusDecodable>(_ name: String, as type: Value.Type = Value.self) throws -> Value {
        let call = Message.serviceCall("Get", interface: StandardInterface.properties) {
            $0.append(ServiceNames.interface.rawValue)
            $0.append(name)
        }
        var reader = try answer(call)
        return try reader.read(ReceivedVariant.self).decode(Value.self)
    }

    var activeCount: UInt32 { get throws { try property(ServiceNames.Property.activeCount) } }
    var visible: Bool { get throws { try property(ServiceNames.Property.visible) } }

    var activities: [ActivityRecord] {
        get throws {
            var reader = try answer(.serviceCall("ListActivities"))
            return try reader.read([ActivityRecord].self)
        }
    }

    /// The time the service takes to answer `Peer.Ping`, which libdbus answers on the service's own loop.
    func pingTime() throws -> Duration {
        let started = ContinuousClock.now
        _ = try answer(.serviceCall("Ping", interface: StandardInterface.peer))
        return started.duration(to: .now)
    }

    private func answer(_ call: Message) throws -> MessageReader {
        let reply = try ask(call)
        if let error = reply.error { throw error }
        return reply.arguments()
    }
}
