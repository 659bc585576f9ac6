public import DBusKit
public import NetworkActivityInterface

/// A connection of its own that calls the service's methods as they are on the wire, through DBusKit: how the
/// tests and the benchmark call the service, beside the real clients and the library.
public final class RawClient {
    public let connection: Connection
    /// When set, sees every message that arrives before an answer, in order, and every call reads the connection's
    /// messages in order until its answer comes: so whatever the service sent before its answer has been seen when
    /// the call returns. Otherwise calls wait with libdbus, which leaves the other messages queued.
    public var observer: ((Message) -> Void)?

    public init(_ bus: PrivateBus) throws {
        connection = try bus.connect()
    }

    /// A client of the bus at `address`: for a thread of its own, which cannot be handed the bus itself.
    public init(address: String) throws {
        connection = try Connection(bus: .address(address))
    }

    /// The connection's unique name, which owns what it begins.
    public var name: String { connection.uniqueName }

    /// Makes a call of the service as its declaration builds it, and reads the answer as declared.
    public func call<Reply>(_ call: ServiceCall<Reply>) throws(DBusError) -> Reply {
        var reply = try answer(to: call.message)
        return try call.readReply(&reply)
    }

    /// Calls `member` of the service's object with any arguments, as they are on the wire (for calls the
    /// declarations would not build: wrong types, unknown members), and waits for the answer.
    public func call(_ member: MemberName, interface: InterfaceName = ServiceNames.interface,
                     _ arguments: (inout MessageWriter) -> Void = { _ in }) throws(DBusError) -> MessageReader {
        try answer(to: Self.message(member, interface: interface, arguments))
    }

    /// A call of `member` of the service's object, with any arguments.
    public static func message(_ member: MemberName, interface: InterfaceName = ServiceNames.interface,
                               _ arguments: (inout MessageWriter) -> Void = { _ in }) -> Message {
        let call = Message.methodCall(destination: ServiceNames.busName, path: ServiceNames.objectPath,
                                      interface: interface, member: member)
        call.appendArguments(arguments)
        return call
    }

    private func answer(to call: Message) throws(DBusError) -> MessageReader {
        guard observer != nil else { return try connection.call(call, timeout: Self.timeout).arguments() }
        let answer: Message
        do {
            answer = try awaitAnswer(to: send(call))
        } catch let error as DBusError {
            throw error
        } catch {
            throw DBusError(.noReply, "\(error)")
        }
        if let error = answer.error { throw error }
        return answer.arguments()
    }

    /// How long a call waits for its answer.
    public static let timeout: Duration = .seconds(10)

    public func begin(_ label: String = "test") throws(DBusError) -> UInt32 {
        try call(ServiceMembers.begin.serviceCall(label))
    }

    public func beginTimed(_ label: String = "test", seconds: UInt32) throws(DBusError) -> UInt32 {
        try call(ServiceMembers.beginWithTimeout.serviceCall(label, seconds))
    }

    public func end(_ id: UInt32) throws(DBusError) {
        _ = try call(ServiceMembers.end.serviceCall(id))
    }

    public func cancel() throws(DBusError) -> UInt32 {
        try call(ServiceMembers.cancel.serviceCall())
    }

    /// A property of the service's interface, by `Properties.Get`.
    public func property<Value: DBusDecodable>(_ name: String, as type: Value.Type) throws(DBusError) -> Value {
        try call(StandardInterface.get.serviceCall(ServiceNames.interface.rawValue, name)).decode(Value.self)
    }

    public var activeCount: UInt32 {
        get throws { try property(ServiceMembers.activeCount.name, as: UInt32.self) }
    }

    public var visible: Bool {
        get throws { try property(ServiceMembers.visible.name, as: Bool.self) }
    }

    /// `ListActivities`.
    public func list() throws(DBusError) -> [ActivityRecord] {
        try call(ServiceMembers.listActivities.serviceCall())
    }

    /// `GetActivities`.
    public func details() throws(DBusError) -> [ActivityDetails] {
        try call(ServiceMembers.getActivities.serviceCall())
    }

    public func setCancellable(_ id: UInt32, _ cancellable: Bool = true) throws(DBusError) {
        _ = try call(ServiceMembers.setCancellable.serviceCall(id, cancellable))
    }

    /// Waits for a signal that `matches` among the messages this connection receives; nil when none comes.
    public func awaitSignal(timeout: Duration = RawClient.timeout, _ matches: (Message) -> Bool) throws -> Message? {
        let deadline = ContinuousClock.now + timeout
        while let message = try connection.nextMessage(timeout: ContinuousClock.now.duration(to: deadline)) {
            if message.type == .signal, matches(message) { return message }
        }
        return nil
    }

    /// Waits for `CancelRequested`; returns its id, nil when none comes.
    public func awaitCancelRequest(timeout: Duration = RawClient.timeout) throws -> UInt32? {
        let request = try awaitSignal(timeout: timeout) { ServiceMembers.cancelRequested.matches($0) }
        return try request.map(ServiceMembers.cancelRequested.read)
    }

    // MARK: Calls that do not wait

    /// Sends a call of `member` and writes it out; returns its serial, for `awaitReply(to:)`.
    public func send(_ member: MemberName, _ arguments: (inout MessageWriter) -> Void = { _ in }) -> UInt32 {
        send(Self.message(member, arguments))
    }

    /// Sends a call of the service as its declaration builds it and writes it out; returns its serial.
    public func send<Reply>(_ call: ServiceCall<Reply>) -> UInt32 {
        send(call.message)
    }

    /// Sends any message as it is and writes it out; returns its serial.
    public func send(_ message: Message) -> UInt32 {
        let serial = connection.send(message)
        connection.flush()
        return serial
    }

    /// Waits for the answer to the call `serial`, an error answer included; what comes before it goes to the
    /// observer, if there is one.
    public func awaitAnswer(to serial: UInt32, timeout: Duration = RawClient.timeout) throws -> Message {
        let deadline = ContinuousClock.now + timeout
        while let message = try connection.nextMessage(timeout: ContinuousClock.now.duration(to: deadline)) {
            if message.replySerial == serial, message.type == .methodReturn || message.type == .error {
                return message
            }
            observer?(message)
        }
        throw HarnessFailure("no answer to call \(serial) within \(timeout)")
    }

    /// Waits for the answer to the call `serial` and reads it, throwing an error answer.
    public func awaitReply(to serial: UInt32, timeout: Duration = RawClient.timeout) throws -> MessageReader {
        let answer = try awaitAnswer(to: serial, timeout: timeout)
        if let error = answer.error { throw error }
        return answer.arguments()
    }
}
