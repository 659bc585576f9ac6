import DBusKit
import NetworkActivityInterface

/// Routes a method call on the service's object to its method, checks its arguments' signature, and sends
/// exactly one reply (none when the caller asked for none).
extension NetworkActivityService {
    /// The interface XML of `dbus/`, compiled into the program byte for byte.
    static let introspectionXML = String(decoding: PackageResources.org_example_NetworkActivity_xml, as: UTF8.self)

    static let introspectableMethods = [
        Method(name: "Introspect", signature: "") { _, call in call.makeReturn(with: introspectionXML) },
    ]

    /// The interfaces the object implements, in the order a call without an interface looks for its member.
    static let interfaces: [(name: InterfaceName, methods: [Method])] = [
        (ServiceNames.interface, activityMethods),
        (ServiceNames.properties, propertyMethods),
        (ServiceNames.introspectable, introspectableMethods),
    ]

    func handle(_ call: Message) -> CallDisposition {
        // libdbus answers Peer itself, before any object sees the call.
        if call.hasInterface(ServiceNames.peer) { return .notHandled }
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
        // Signals before the reply, as the C reference does; a method that changed the state has sent them already,
        // before building its reply (`replyAfterAnnouncing`).
        publishNotifications()
        if call.expectsReply { connection.send(reply) }
        return .handled
    }

    /// Found by comparing names in place, through libdbus, since a call is looked up on every message: no name is
    /// copied out of the message or hashed.
    private static func method(for call: Message) throws(DBusError) -> Method {
        if let (_, methods) = interfaces.first(where: { call.hasInterface($0.name) }) {
            guard let method = methods.first(where: { call.hasMember($0.name) }) else {
                throw DBusError(.unknownMethod,
                                "interface \(call.interface ?? "") has no method \"\(call.member ?? "")\"")
            }
            return method
        }
        guard call.interface == nil else {
            throw DBusError(.unknownInterface, "the object has no interface \"\(call.interface ?? "")\"")
        }
        for (_, methods) in interfaces {
            if let method = methods.first(where: { call.hasMember($0.name) }) { return method }
        }
        throw DBusError(.unknownMethod, "the object has no method \"\(call.member ?? "")\"")
    }
}
