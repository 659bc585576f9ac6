// SPDX-License-Identifier: Apache-2.0
/// One interface of an object, declared once: its methods, properties and signals, as its introspection XML
/// lists them. `ServedObject` serves what every object needs from it (the signature checks, the standard errors,
/// `org.freedesktop.DBus.Properties`, `Introspectable`, one reply per call); the object writes only its handlers
/// and getters. `Object` is the type whose instance the handlers and getters are given.
public struct InterfaceDeclaration<Object: AnyObject>: Sendable {
    public let name: InterfaceName
    public let methods: [MethodDeclaration<Object>]
    public let properties: [PropertyDeclaration<Object>]
    public let signals: [SignalDeclaration]

    public init(
        _ name: InterfaceName, methods: [MethodDeclaration<Object>] = [],
        properties: [PropertyDeclaration<Object>] = [], signals: [SignalDeclaration] = []
    ) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }
}

/// A named argument of a method or a signal: `("label", "s")`.
public struct ArgumentDeclaration: Sendable, Hashable {
    public let name: String
    public let signature: String

    public init(_ name: String, _ signature: String) {
        self.name = name
        self.signature = signature
    }
}

/// A method: its name, its arguments in and out, and its handler, which is called only with arguments of the
/// input signature and returns the reply (`call.makeReturn(with:)`), or nil when it will answer later
/// (`ServedObject.answer`); what it throws is sent as the error reply.
public struct MethodDeclaration<Object: AnyObject>: Sendable {
    public typealias Handler = @Sendable (Object, Message) throws(DBusError) -> Message?

    public let name: MemberName
    public let inputs: [ArgumentDeclaration]
    public let outputs: [ArgumentDeclaration]
    /// The inputs' signatures joined, compared with each call's.
    public let inputSignature: String
    @usableFromInline let handler: Handler

    public init(
        _ name: MemberName, inputs: [ArgumentDeclaration] = [], outputs: [ArgumentDeclaration] = [],
        handler: @escaping Handler
    ) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        inputSignature = inputs.map(\.signature).joined()
        self.handler = handler
    }
}

/// A read-only property: its name, its signature, the getter of its value now, and whether its changes are
/// announced with `PropertiesChanged` (`ServedObject.propertiesChanged`).
public struct PropertyDeclaration<Object: AnyObject>: Sendable {
    public let name: String
    public let signature: String
    public let announcesChanges: Bool
    @usableFromInline let get: @Sendable (Object) -> Variant

    public init<Value: DBusEncodable & SendableMetatype>(
        _ name: String, _ type: Value.Type, announcesChanges: Bool, get: @escaping @Sendable (Object) -> Value
    ) {
        self.name = name
        signature = Value.dbusSignature
        self.announcesChanges = announcesChanges
        self.get = { Variant(get($0)) }
    }
}

/// A signal: its name and arguments.
public struct SignalDeclaration: Sendable {
    public let name: MemberName
    public let arguments: [ArgumentDeclaration]

    public init(_ name: MemberName, arguments: [ArgumentDeclaration] = []) {
        self.name = name
        self.arguments = arguments
    }
}

extension MethodDeclaration {
    /// The method `member` declares, served by `handler`, which is given the call (for its sender) and its
    /// arguments as declared, and returns the reply's value. Inlinable, so that the arguments are read by code
    /// specialized where the service is built, with no generic metadata looked up on a call.
    @inlinable
    public init<each Input: DBusDecodable & SendableMetatype, Output: DBusEncodable & SendableMetatype>(
        _ member: Method<repeat each Input, Output>,
        handler: @escaping @Sendable (Object, Message, repeat each Input) throws(DBusError) -> Output
    ) {
        self.init(member.name, inputs: member.inputs, outputs: member.outputs) { object, call throws(DBusError) in
            var reader = call.arguments()
            let output = try handler(object, call, repeat try reader.read((each Input).self))
            return call.makeReturn(with: output)
        }
    }
}

/// How a method that asks another program before it can answer replies: now, with its reply's value, or later,
/// through `ServedObject.answer(_:with:)` or `ServedObject.answer(_:failing:)`, once the other program has.
public enum MethodAnswer<Output> {
    case now(Output)
    case later
}

extension MethodDeclaration {
    /// The method `member` declares, served by `handler`, which may keep the call and answer it later.
    @inlinable
    public init<each Input: DBusDecodable & SendableMetatype, Output: DBusEncodable & SendableMetatype>(
        _ member: Method<repeat each Input, Output>,
        answeringLater handler: @escaping @Sendable (Object, Message, repeat each Input) throws(DBusError)
            -> MethodAnswer<Output>
    ) {
        self.init(member.name, inputs: member.inputs, outputs: member.outputs) { object, call throws(DBusError) in
            var reader = call.arguments()
            switch try handler(object, call, repeat try reader.read((each Input).self)) {
            case .now(let output): return call.makeReturn(with: output)
            case .later: return nil
            }
        }
    }
}

extension SignalDeclaration {
    /// The signal `member` declares.
    public init<each Value>(_ member: Signal<repeat each Value>) {
        self.init(member.name, arguments: member.arguments)
    }
}

extension PropertyDeclaration {
    /// The property `member` declares, read by `get`.
    public init<Value: DBusEncodable & SendableMetatype>(
        _ member: Property<Value>, announcesChanges: Bool, get: @escaping @Sendable (Object) -> Value
    ) {
        self.init(member.name, Value.self, announcesChanges: announcesChanges, get: get)
    }
}

extension InterfaceDeclaration {
    /// The interface `name` whose methods and signals `members` declares, served by an object that implements
    /// none of them but passes every call on: `passOn` is given each call whose arguments have its method's
    /// signature, and answers it later (`ServedObject.answer`), or throws the error to answer now.
    public init(
        _ name: InterfaceName, passingOn members: [any InterfaceMember],
        to passOn: @escaping @Sendable (Object, Message) throws(DBusError) -> Void
    ) {
        let methods = members.compactMap { $0 as? any MethodMember }.map { method in
            MethodDeclaration<Object>(method.name, inputs: method.inputs, outputs: method.outputs) {
                object, call throws(DBusError) in
                try passOn(object, call)
                return nil
            }
        }
        let signals = members.compactMap { $0 as? any SignalMember }.map {
            SignalDeclaration($0.name, arguments: $0.arguments)
        }
        self.init(name, methods: methods, signals: signals)
    }
}
