// SPDX-License-Identifier: Apache-2.0
/// The members of an interface as both sides see them, declared once: a method's name with its arguments in and
/// out, a signal's name with its arguments, a property's name with its type. A service binds its handlers to them
/// (`MethodDeclaration(_:handler:)`, `SignalDeclaration(_:)`, `PropertyDeclaration(_:announcesChanges:get:)`),
/// and a client builds its calls and reads their replies and signals with them, so that a member's name and types
/// are written in one place. As zbus and gdbus-codegen derive both sides from one description.

/// A named argument of a member, of type `Value`, whose D-Bus signature the declaration takes.
public struct Argument<Value: DBusTyped>: Sendable {
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    @usableFromInline var declaration: ArgumentDeclaration { ArgumentDeclaration(name, Value.dbusSignature) }
}

/// The reply of a method that returns nothing: no argument on the wire.
public struct NoValue: DBusCodable, Sendable, Equatable {
    public static var dbusSignature: String { "" }
    public init() {}
    public func encode(to writer: inout MessageWriter) {}
    public init(from reader: inout MessageReader) throws(DBusError) {}
}

/// The reply of a method that returns two values, one after the other on the wire.
public struct TwoValues<First: DBusTyped, Second: DBusTyped>: DBusTyped {
    public static var dbusSignature: String { First.dbusSignature + Second.dbusSignature }
    public var first: First
    public var second: Second

    public init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }
}

extension TwoValues: DBusEncodable where First: DBusEncodable, Second: DBusEncodable {
    public func encode(to writer: inout MessageWriter) {
        writer.append(first)
        writer.append(second)
    }
}

extension TwoValues: DBusDecodable where First: DBusDecodable, Second: DBusDecodable {
    public init(from reader: inout MessageReader) throws(DBusError) {
        self.init(try reader.read(First.self), try reader.read(Second.self))
    }
}

extension TwoValues: Sendable where First: Sendable, Second: Sendable {}

/// A method of `interface`: its name, its arguments in (`Input`), and its reply (`Output`, `NoValue` for none).
public struct Method<each Input: DBusTyped, Output: DBusTyped>: Sendable {
    public let interface: InterfaceName
    public let name: MemberName
    public let inputs: [ArgumentDeclaration]
    public let outputs: [ArgumentDeclaration]

    /// A method that returns `output`.
    public init(
        _ name: MemberName, of interface: InterfaceName, _ inputs: repeat Argument<each Input>,
        output: Argument<Output>
    ) {
        self.interface = interface
        self.name = name
        var declared: [ArgumentDeclaration] = []
        for input in repeat each inputs { declared.append(input.declaration) }
        self.inputs = declared
        outputs = [output.declaration]
    }

    /// A method that returns two values.
    public init<First, Second>(
        _ name: MemberName, of interface: InterfaceName, _ inputs: repeat Argument<each Input>,
        outputs first: Argument<First>, _ second: Argument<Second>
    ) where Output == TwoValues<First, Second> {
        self.interface = interface
        self.name = name
        var declared: [ArgumentDeclaration] = []
        for input in repeat each inputs { declared.append(input.declaration) }
        self.inputs = declared
        outputs = [first.declaration, second.declaration]
    }

    /// A method that returns nothing.
    public init(_ name: MemberName, of interface: InterfaceName, _ inputs: repeat Argument<each Input>)
    where Output == NoValue {
        self.interface = interface
        self.name = name
        var declared: [ArgumentDeclaration] = []
        for input in repeat each inputs { declared.append(input.declaration) }
        self.inputs = declared
        outputs = []
    }

    /// The arguments in, joined: what a call's signature must be.
    public var inputSignature: String { inputs.map(\.signature).joined() }

    /// A call of this method on `path` at `destination`, carrying `arguments`.
    @inlinable
    public func call(
        _ arguments: repeat each Input, destination: BusName?, path: ObjectPath
    ) -> Message where repeat each Input: DBusEncodable {
        let message = Message.methodCall(destination: destination, path: path, interface: interface, member: name)
        var writer = MessageWriter(message: message)
        for argument in repeat each arguments { writer.append(argument) }
        return message
    }

    /// The reply's value, read from a successful reply's arguments.
    @inlinable
    public func readReply(_ reply: inout MessageReader) throws(DBusError) -> Output where Output: DBusDecodable {
        try reply.read(Output.self)
    }
}

/// A signal of `interface`: its name and its arguments (`Value`).
public struct Signal<each Value: DBusTyped>: Sendable {
    public let interface: InterfaceName
    public let name: MemberName
    public let arguments: [ArgumentDeclaration]

    public init(_ name: MemberName, of interface: InterfaceName, _ arguments: repeat Argument<each Value>) {
        self.interface = interface
        self.name = name
        var declared: [ArgumentDeclaration] = []
        for argument in repeat each arguments { declared.append(argument.declaration) }
        self.arguments = declared
    }

    /// Whether `message` is this signal.
    public func matches(_ message: Message) -> Bool {
        message.isSignal(interface: interface, member: name)
    }

    /// The rule that subscribes to this signal, from `sender` when given.
    public func rule(sender: BusName? = nil, path: ObjectPath? = nil) -> MatchRule {
        MatchRule(sender: sender, path: path, interface: interface, member: name)
    }

    /// The signal's arguments, as declared.
    @inlinable
    public func read(_ message: Message) throws(DBusError) -> (repeat each Value)
    where repeat each Value: DBusDecodable {
        var reader = message.arguments()
        return (repeat try reader.read((each Value).self))
    }

    /// Appends the signal's arguments to a signal built for it.
    @inlinable
    public func write(_ values: repeat each Value, to signal: Message) where repeat each Value: DBusEncodable {
        var writer = MessageWriter(message: signal)
        for value in repeat each values { writer.append(value) }
    }
}

/// A property of `interface`: its name and its type.
public struct Property<Value: DBusTyped>: Sendable {
    public let interface: InterfaceName
    public let name: String

    public init(_ name: String, of interface: InterfaceName) {
        self.interface = interface
        self.name = name
    }

    public var signature: String { Value.dbusSignature }
}

/// Any member of an interface, as a list of an interface's members holds it.
public protocol InterfaceMember: Sendable {
    var interface: InterfaceName { get }
    /// The member's name as the XML has it.
    var memberName: String { get }
}

extension Method: InterfaceMember {
    public var memberName: String { name.rawValue }
}

extension Signal: InterfaceMember {
    public var memberName: String { name.rawValue }
}

extension Property: InterfaceMember {
    public var memberName: String { name }
}

/// A method as code that serves any method alike (a relay) sees it: its names and arguments, not their types.
public protocol MethodMember: InterfaceMember {
    var name: MemberName { get }
    var inputs: [ArgumentDeclaration] { get }
    var outputs: [ArgumentDeclaration] { get }
}

extension Method: MethodMember {}

/// A signal as a relay sees it.
public protocol SignalMember: InterfaceMember {
    var name: MemberName { get }
    var arguments: [ArgumentDeclaration] { get }
}

extension Signal: SignalMember {}
