import DBusKit

/// A connection of the test's own to the private bus, through DBusKit: the Swift side of the clients.
final class Client {
    let connection: Connection

    init(_ bus: PrivateBus) throws {
        connection = try Connection(bus: .address(bus.address))
    }

    var name: String { connection.uniqueName }

    func call(_ member: MemberName, interface: InterfaceName = interfaceName,
              _ arguments: (inout MessageWriter) -> Void = { _ in }) throws(DBusError) -> MessageReader {
        try connection.call(destination: busName, path: objectPath, interface: interface, member: member,
                            timeout: .seconds(10), arguments: arguments)
    }

    func begin(_ label: String = "test") throws(DBusError) -> UInt32 {
        var reply = try call("Begin") { $0.append(label) }
        return try reply.read(UInt32.self)
    }

    func beginTimed(_ label: String = "test", seconds: UInt32) throws(DBusError) -> UInt32 {
        var reply = try call("BeginWithTimeout") { $0.append(label); $0.append(seconds) }
        return try reply.read(UInt32.self)
    }

    func end(_ id: UInt32) throws(DBusError) {
        _ = try call("End") { $0.append(id) }
    }

    func cancel() throws(DBusError) -> UInt32 {
        var reply = try call("Cancel")
        return try reply.read(UInt32.self)
    }

    func property<Value: DBusDecodable>(_ name: String, as type: Value.Type) throws(DBusError) -> Value {
        var reply = try call("Get", interface: "org.freedesktop.DBus.Properties") {
            $0.append(interfaceName.rawValue)
            $0.append(name)
        }
        return try reply.read(ReceivedVariant.self).decode(Value.self)
    }

    var activeCount: UInt32 { get throws { try property("ActiveCount", as: UInt32.self) } }
    var visible: Bool { get throws { try property("Visible", as: Bool.self) } }

    struct Listed: Equatable {
        let id: UInt32, owner: String, label: String, start: UInt64, deadline: UInt64
    }

    func list() throws(DBusError) -> [Listed] {
        var reply = try call("ListActivities")
        return try reply.readArray("a(usstt)") { (element: inout MessageReader) throws(DBusError) in
            try element.readStruct("(usstt)") { (f: inout MessageReader) throws(DBusError) in
                Listed(id: try f.read(), owner: try f.read(), label: try f.read(), start: try f.read(),
                       deadline: try f.read())
            }
        }
    }

    /// Expects `body` to fail with the D-Bus error `name`; returns the error's message.
    func expectError(_ name: String, _ body: (Client) throws -> Void) throws -> String {
        do {
            try body(self)
        } catch let error as DBusError {
            guard error.name.rawValue == name else { throw TestFailure("expected \(name), got \(error)") }
            return error.message
        }
        throw TestFailure("expected \(name), but the call succeeded")
    }
}
