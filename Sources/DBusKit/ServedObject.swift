// SPDX-License-Identifier: Apache-2.0
internal import CDBus
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An object on the bus, served from its interface declarations.
///
/// Every call gets exactly one reply (none when the caller asked for none): a method's own, or the standard error.
/// A call is routed by its interface and member, compared in place with the fields libdbus holds since a call is
/// looked up on every message, and its arguments must have the method's input signature (`InvalidArgs` names it).
/// Besides the declared interfaces, the object answers `org.freedesktop.DBus.Properties` (`Get`, `GetAll`, `Set`,
/// which answers `PropertyReadOnly`: every property is read-only) and `org.freedesktop.DBus.Introspectable`, from
/// the introspection XML it is given; libdbus answers `org.freedesktop.DBus.Peer`. It builds `PropertiesChanged`
/// for the properties that announce their changes. It lives on its connection's loop.
///
/// It is not generic: the declarations' `Object` is erased once, when the object is served, so that no call asks
/// the Swift runtime for generic metadata (which the code of another module, unspecialized, would do on every one).
public final class ServedObject {
    public let path: ObjectPath
    @usableFromInline let interfaces: [ServedInterface]
    /// Every declared method, in the order declared.
    @usableFromInline let methods: [ServedMethod]
    @usableFromInline let introspectionXML: String
    /// Not retained: the object owns what serves it.
    @usableFromInline unowned let object: AnyObject
    @usableFromInline let send: (Message) -> Void
    @usableFromInline let beforeReply: (AnyObject) -> Void

    /// An object whose replies and signals go to `send`; `Connection.serve` makes one that sends on the connection,
    /// and a test may keep them instead. The object is not retained: it owns what serves it.
    /// Inlinable, so that the declarations are erased by code specialized for `Object`, where the program that
    /// serves it is built: unspecialized, it would bring the generic machinery of the runtime into memory at start.
    @inlinable
    public init<Object: AnyObject>(
        _ object: Object, at path: ObjectPath, interfaces: [InterfaceDeclaration<Object>], introspectionXML: String,
        send: @escaping (Message) -> Void, beforeReply: @escaping (Object) -> Void = { _ in }
    ) {
        self.object = object
        self.path = path
        self.interfaces = interfaces.map(ServedInterface.init)
        methods = interfaces.flatMap { interface in
            interface.methods.map { ServedMethod($0, of: interface.name) }
        }
        self.introspectionXML = introspectionXML
        self.send = send
        self.beforeReply = { beforeReply(unsafeDowncast($0, to: Object.self)) }
    }

    /// Answers a method call to this object, as the connection's router does for every call to its path.
    public func handle(_ call: Message) -> CallDisposition {
        let reply: Message?
        do throws(DBusError) {
            if let index = declaredMethod(of: call) {
                guard dbus_message_has_signature(call.raw, methods[index].names.signature) != 0 else {
                    throw Self.wrongSignature(methods[index], call)
                }
                reply = try methods[index].handler(object, call)
            } else {
                // libdbus answers Peer itself.
                guard let answer = try answerUndeclared(call) else { return .notHandled }
                reply = answer
            }
        } catch {
            reply = call.makeErrorReply(error)
        }
        beforeReply(object)
        if let reply, call.expectsReply { send(reply) }
        return .handled
    }

    /// Answers a call whose handler said it would answer later (`MethodAnswer.later`).
    public func answer<Value: DBusEncodable>(_ call: Message, with value: Value) {
        if call.expectsReply { send(call.makeReturn(with: value)) }
    }

    /// Answers a call whose handler said it would answer later with another call's reply, passed on whole
    /// (`Message.replyPassingOn`).
    public func answer(_ call: Message, passingOn reply: Message) {
        if call.expectsReply { send(call.replyPassingOn(reply)) }
    }

    /// Answers a call whose handler said it would answer later with an error.
    public func answer(_ call: Message, failing error: DBusError) {
        if call.expectsReply { send(call.makeErrorReply(error)) }
    }

    /// The index of the declared method `call` names: its interface's method of its member, or, when it names no
    /// interface, the first method of its member.
    private func declaredMethod(of call: Message) -> Int? {
        let interfaceField = call.interfaceField
        guard let memberField = call.memberField else { return nil }
        return methods.firstIndex { method in
            guard method.names.member.names(memberField) else { return false }
            guard let interfaceField else { return true }
            return method.names.interface.names(interfaceField)
        }
    }

    /// Apart from the call path, where its message would take room in every call's code.
    @inline(never)
    private static func wrongSignature(_ method: ServedMethod, _ call: Message) -> DBusError {
        DBusError.wrongSignature(expected: method.names.signature, got: call.signature)
    }

    /// Answers a call that names no declared method: a standard one, or the error that says what is missing; nil
    /// for `org.freedesktop.DBus.Peer`.
    private func answerUndeclared(_ call: Message) throws(DBusError) -> Message? {
        let interfaceField = call.interfaceField
        if let declared = interfaces.first(where: { $0.name.names(interfaceField) }) {
            throw DBusError(.unknownMethod, "interface \(declared.name) has no method \"\(call.member ?? "")\"")
        }
        if StandardInterface.peer.names(interfaceField) { return nil }
        guard let interface = call.interface else {
            guard let standard = StandardMethod(of: call) else {
                throw DBusError(.unknownMethod, "the object has no method \"\(call.member ?? "")\"")
            }
            return try answer(standard, call)
        }
        if let standard = StandardMethod(of: call) { return try answer(standard, call) }
        guard call.hasInterface(StandardInterface.properties) || call.hasInterface(StandardInterface.introspectable)
        else {
            throw DBusError(.unknownInterface, "the object has no interface \"\(interface)\"")
        }
        throw DBusError(.unknownMethod, "interface \(interface) has no method \"\(call.member ?? "")\"")
    }

    // MARK: Properties and Introspectable

    private func answer(_ method: StandardMethod, _ call: Message) throws(DBusError) -> Message {
        guard call.hasSignature(method.signature) else {
            throw DBusError.wrongSignature(expected: method.signature, got: call.signature)
        }
        var arguments = call.arguments()
        switch method {
        case .get:
            let owners = try propertyInterfaces(named: try arguments.read(String.self))
            let name = try arguments.read(String.self)
            return call.makeReturn(with: try property(name, in: owners).get(object))
        case .getAll:
            let owners = try propertyInterfaces(named: try arguments.read(String.self))
            let reply = call.makeReturn()
            reply.appendArguments { writer in
                writer.appendArray(elementSignature: "{sv}") { entries in
                    for property in owners.lazy.flatMap(\.properties) {
                        entries.appendDictEntry { entry in
                            entry.append(property.name)
                            entry.append(property.get(object))
                        }
                    }
                }
            }
            return reply
        case .set:
            let owners = try propertyInterfaces(named: try arguments.read(String.self))
            let name = try property(try arguments.read(String.self), in: owners).name
            throw DBusError(.propertyReadOnly, "property \(name) is read-only")
        case .introspect:
            return call.makeReturn(with: introspectionXML)
        }
    }

    /// The interfaces a Properties call names: all of them for an empty name, which means "whichever has it".
    private func propertyInterfaces(named name: String) throws(DBusError) -> ArraySlice<ServedInterface> {
        if name.isEmpty { return interfaces[...] }
        guard let index = interfaces.firstIndex(where: { $0.name.rawValue == name }) else {
            throw DBusError(.unknownInterface, "the object has no properties on interface \"\(name)\"")
        }
        return interfaces[index...index]
    }

    private func property(
        _ name: String, in owners: ArraySlice<ServedInterface>
    ) throws(DBusError) -> ServedProperty {
        for interface in owners {
            if let property = interface.properties.first(where: { $0.name == name }) { return property }
        }
        let owner = owners.count == 1 ? owners.first.map { "interface \($0.name)" } ?? "" : "the object"
        throw DBusError(.unknownProperty, "\(owner) has no property \"\(name)\"")
    }

    // MARK: Signals

    /// Sends a signal of this object the way its replies go.
    public func emit(_ signal: Message) {
        send(signal)
    }

    /// A signal of this object, to fill in and send, to every connection whose rules match it or to `destination`
    /// alone; `member` must be one that `interface` declares.
    public func makeSignal(_ member: MemberName, of interface: InterfaceName, to destination: BusName? = nil)
        -> Message
    {
        assert(interfaces.contains { $0.name == interface && $0.signals.contains { $0.name == member } },
               "\(interface) declares no signal \(member)")
        return Message.signal(path: path, interface: interface, member: member, destination: destination)
    }

    /// The signal `member` of this object carrying `values`, to every connection whose rules match it or to
    /// `destination` alone.
    @inlinable
    public func makeSignal<each Value: DBusEncodable>(
        _ member: Signal<repeat each Value>, _ values: repeat each Value, to destination: BusName? = nil
    ) -> Message {
        let signal = makeSignal(member.name, of: member.interface, to: destination)
        member.write(repeat each values, to: signal)
        return signal
    }

    /// `PropertiesChanged` for `interface` carrying `changes`, each a declared property that announces its changes.
    /// Building it costs tens of thousands of instructions, so a service whose state goes back and forth keeps the
    /// signals it built in a `SignalCache` and sends copies.
    public func makePropertiesChanged(of interface: InterfaceName, _ changes: [ChangedProperty]) -> Message {
        assert(changes.allSatisfy { change in
            interfaces.contains { $0.name == interface && $0.properties.contains {
                $0.name == change.name && $0.announcesChanges
            } }
        }, "\(changes.map(\.name)) are not properties of \(interface) that announce their changes")
        let signal = Message.signal(path: path, interface: StandardInterface.properties,
                                    member: StandardInterface.propertiesChanged.name)
        signal.appendArguments { arguments in
            arguments.append(interface.rawValue)
            arguments.appendArray(elementSignature: "{sv}") { entries in
                for change in changes {
                    entries.appendDictEntry { entry in
                        entry.append(change.name)
                        entry.append(change.value)
                    }
                }
            }
            arguments.appendArray(elementSignature: String.dbusSignature) { _ in }
        }
        return signal
    }
}

extension Connection {
    /// Serves `object` at `path` with the methods and properties its `interfaces` declare, and the standard
    /// interfaces every object has; `introspectionXML` is what `Introspect` returns. `beforeReply` runs after
    /// every call, before its reply is sent, so that signals of the change go out first.
    @inlinable
    public func serve<Object>(
        _ object: Object, at path: ObjectPath, interfaces: [InterfaceDeclaration<Object>], introspectionXML: String,
        beforeReply: @escaping (Object) -> Void = { _ in }
    ) throws(DBusError) -> ServedObject {
        // The connection keeps the served object (its router holds the handler), which must not keep it in turn.
        let served = ServedObject(object, at: path, interfaces: interfaces, introspectionXML: introspectionXML,
                                  send: { [unowned self] message in send(message) }, beforeReply: beforeReply)
        try register(served)
        return served
    }
}

/// An interface as a served object keeps it: its declaration with the object's type erased, its methods apart.
@usableFromInline
struct ServedInterface {
    @usableFromInline let name: InterfaceName
    @usableFromInline let properties: [ServedProperty]
    @usableFromInline let signals: [SignalDeclaration]

    @inlinable
    init<Object: AnyObject>(_ declaration: InterfaceDeclaration<Object>) {
        name = declaration.name
        properties = declaration.properties.map(ServedProperty.init)
        signals = declaration.signals
    }
}

/// A declared method as calls are matched with it: its names and input signature as C strings, compared with the
/// fields of a call where libdbus holds them, and its handler with the object's type erased.
@usableFromInline
struct ServedMethod {
    @usableFromInline let names: MethodNames
    @usableFromInline let handler: (AnyObject, Message) throws(DBusError) -> Message?

    @inlinable
    init<Object: AnyObject>(_ declaration: MethodDeclaration<Object>, of interface: InterfaceName) {
        names = MethodNames(interface: interface, member: declaration.name, signature: declaration.inputSignature)
        let handler = declaration.handler
        // The served object is the one the declarations were given for.
        self.handler = { object, call throws(DBusError) in try handler(unsafeDowncast(object, to: Object.self), call) }
    }
}

/// A method's interface, member and input signature.
@usableFromInline
struct MethodNames {
    let interface: InterfaceName
    let member: MemberName
    let signature: String

    @usableFromInline
    init(interface: InterfaceName, member: MemberName, signature: String) {
        self.interface = interface
        self.member = member
        self.signature = signature
    }
}

@usableFromInline
struct ServedProperty {
    @usableFromInline let name: String
    @usableFromInline let announcesChanges: Bool
    @usableFromInline let get: (AnyObject) -> Variant

    @inlinable
    init<Object: AnyObject>(_ declaration: PropertyDeclaration<Object>) {
        name = declaration.name
        announcesChanges = declaration.announcesChanges
        let get = declaration.get
        self.get = { get(unsafeDowncast($0, to: Object.self)) }
    }
}

/// The interfaces every object has.
public enum StandardInterface {
    /// `Get`, `GetAll`, `Set` and `PropertiesChanged`.
    public static let properties: InterfaceName = "org.freedesktop.DBus.Properties"
    /// `Introspect`, which returns the object's interface XML.
    public static let introspectable: InterfaceName = "org.freedesktop.DBus.Introspectable"
    /// `Ping` and `GetMachineId`, which libdbus answers.
    public static let peer: InterfaceName = "org.freedesktop.DBus.Peer"

    // Their members, as the specification declares them.
    public static let get = Method("Get", of: properties, Argument<String>("interface_name"),
                                   Argument<String>("property_name"), output: Argument<ReceivedVariant>("value"))
    public static let getAll = Method("GetAll", of: properties, Argument<String>("interface_name"),
                                      output: Argument<[String: ReceivedVariant]>("properties"))
    public static let set = Method("Set", of: properties, Argument<String>("interface_name"),
                                   Argument<String>("property_name"), Argument<Variant>("value"))
    public static let propertiesChanged = Signal(
        "PropertiesChanged", of: properties, Argument<String>("interface_name"),
        Argument<[String: Variant]>("changed_properties"), Argument<[String]>("invalidated_properties"))
    /// `PropertiesChanged`'s arguments as a receiver reads them, the new values as they came: what
    /// `propertiesChanged` declares, with variants to read rather than to send.
    public static func readPropertiesChanged(
        _ signal: Message
    ) throws(DBusError) -> (interface: String, changed: [String: ReceivedVariant], invalidated: [String]) {
        guard signal.hasSignature(propertiesChanged.arguments.map(\.signature).joined()) else {
            throw .wrongSignature(expected: "sa{sv}as", got: signal.signature)
        }
        var reader = signal.arguments()
        return (try reader.read(String.self), try reader.read([String: ReceivedVariant].self),
                try reader.read([String].self))
    }
    public static let introspect = Method("Introspect", of: introspectable, output: Argument<String>("xml_data"))
    public static let ping = Method("Ping", of: peer)
}

/// A method of the standard interfaces that `ServedObject` answers itself.
private enum StandardMethod {
    case get, getAll, set, introspect

    private static let getMember = StandardInterface.get.name
    private static let getAllMember = StandardInterface.getAll.name
    private static let setMember = StandardInterface.set.name
    private static let introspectMember = StandardInterface.introspect.name

    /// The call's method, when it is one of these, with its interface or none.
    init?(of call: Message) {
        let anyInterface = call.interface == nil
        if anyInterface || call.hasInterface(StandardInterface.properties) {
            if call.hasMember(Self.getMember) { self = .get; return }
            if call.hasMember(Self.getAllMember) { self = .getAll; return }
            if call.hasMember(Self.setMember) { self = .set; return }
        }
        if anyInterface || call.hasInterface(StandardInterface.introspectable), call.hasMember(Self.introspectMember) {
            self = .introspect
            return
        }
        return nil
    }

    var signature: String {
        switch self {
        case .get: "ss"
        case .getAll: "s"
        case .set: "ssv"
        case .introspect: ""
        }
    }
}
