public import DBusKit
public import NetworkActivityInterface

/// A connection of its own that calls the service's methods as they are on the wire, through DBusKit: how the
/// tests and the benchmark call the service, beside the real clients and the library.
public final class RawClient {
    public let connection: Connection

    public init(_ bus: PrivateBus) throws {
        connection = try bus.connect()
    }

    /// A client of the bus at `address`: for a thread of its own, which cannot be handed the bus itself.
    public init(address: String) throws {
        connection = try Connection(bus: .address(address))
    }

    /// The connection's unique name, which owns what it begins.
    public var name: String { connection.uniqueName }

    /// Calls `member` of the service's object and waits for the answer.
    public func call(_ member: MemberName, interface: InterfaceName = ServiceNames.interface,
                     _ arguments: (inout MessageWriter) -> Void = { _ in }) throws(DBusError) -> MessageReader {
        try connection.call(.serviceCall(member, interface: interface, arguments: arguments), timeout: .seconds(10))
            .arguments()
    }

    public func begin(_ label: String = "test") throws(DBusError) -> UInt32 {
        var reply = try call("Begin") { $0.append(label) }
        return try reply.read(UInt32.self)
    }

    public func beginTimed(_ label: String = "test", seconds: UInt32) throws(DBusError) -> UInt32 {
        var reply = try call("BeginWithTimeout") { $0.append(label); $0.append(seconds) }
        return try reply.read(UInt32.self)
    }

    public func end(_ id: UInt32) throws(DBusError) {
        _ = try call("End") { $0.append(id) }
    }

    public func cancel() throws(DBusError) -> UInt32 {
        var reply = try call("Cancel")
        return try reply.read(UInt32.self)
    }

    /// A property of the service's interface, by `Properties.Get`.
    public func property<Value: DBusDecodable>(_ name: String, as type: Value.Type) throws(DBusError) -> Value {
        var reply = try call("Get", interface: StandardInterface.properties) {
            $0.append(ServiceNames.interface.rawValue)
            $0.append(name)
        }
        return try reply.read(ReceivedVariant.self).decode(Value.self)
    }

    public var activeCount: UInt32 {
        get throws { try property(ServiceNames.Property.activeCount, as: UInt32.self) }
    }

    public var visible: Bool {
        get throws { try property(ServiceNames.Property.visible, as: Bool.self) }
    }

    /// `ListActivities`.
    public func list() throws(DBusError) -> [ActivityRecord] {
        var reply = try call("ListActivities")
        return try reply.read([ActivityRecord].self)
    }

    // MARK: Calls that do not wait

    /// Sends a call of `member` and writes it out; returns its serial, for `awaitReply(to:)`.
    public func send(_ member: MemberName, _ arguments: (inout MessageWriter) -> Void = { _ in }) -> UInt32 {
        let serial = connection.send(.serviceCall(member, arguments: arguments))
        connection.flush()
        return serial
    }

    /// Waits for the answer to the call `serial`, throwing an error answer; what comes before it is dropped.
    public func awaitReply(to serial: UInt32, timeout: Duration = .seconds(10)) throws -> MessageReader {
        let deadline = ContinuousClock.now + timeout
        while let message = try connection.nextMessage(timeout: ContinuousClock.now.duration(to: deadline)) {
            guard message.replySerial == serial, message.type == .methodReturn || message.type == .error else {
                continue
            }
            if let error = message.error { throw error }
            return message.arguments()
        }
        throw HarnessFailure("no answer to call \(serial) within \(timeout)")
    }
}
