import DBusKit
import NetworkActivityInterface

/// Routes a method call on the service's object to its method, checks its arguments' signature, and sends
/// exactly one reply (none when the caller asked for none).
extension NetworkActivityService {
    /// The interface XML of `dbus/`, compiled into the program byte for byte.
    static let introspectionXML = String(decoding: PackageResources.org_example_NetworkActivity_xml, as: UTF8.self)

    static let introspectableMethods: [String: Method] = [
        "Introspect": Method(signature: "") { _, call in call.makeReturn(with: introspectionXML) },
    ]

    /// The interfaces the object implements, in the order a call without an interface looks for its member.
    static let interfaces: [(name: InterfaceName, methods: [String: Method])] = [
        (ServiceNames.interface, activityMethods),
        (ServiceNames.properties, propertyMethods),
        (ServiceNames.introspectable, introspectableMethods),
    ]

    func handle(_ call: Message) -> CallDisposition {
        // libdbus answers Peer itself, before any object sees the call.
        if call.interface == ServiceNames.peer.rawValue { return .notHandled }
        let reply: Message
        do throws(DBusError) {
            let method = try Self.method(for: call)
            guard call.hasSignature(method.signature) else {
                throw DBusError.wrongSignature(expected: method.signature, got: call.signature)
            }
            reply = try method.invoke(self, call)
        } catch {
            reply = call.makeErrorReply(error)
        }
        if call.expectsReply { connection.send(reply) }
        publishNotifications()
        return .handled
    }

    private static func method(for call: Message) throws(DBusError) -> Method {
        let member = call.member ?? ""
        guard let interface = call.interface else {
            for (_, methods) in interfaces {
                if let method = methods[member] { return method }
            }
            throw DBusError(.unknownMethod, "the object has no method \"\(member)\"")
        }
        guard let methods = interfaces.first(where: { $0.name.rawValue == interface })?.methods else {
            throw DBusError(.unknownInterface, "the object has no interface \"\(interface)\"")
        }
        guard let method = methods[member] else {
            throw DBusError(.unknownMethod, "interface \(interface) has no method \"\(member)\"")
        }
        return method
    }
}
