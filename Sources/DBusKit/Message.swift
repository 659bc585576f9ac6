// SPDX-License-Identifier: Apache-2.0
internal import CDBus

/// The kind of a D-Bus message.
public enum MessageType: Sendable {
    case methodCall, methodReturn, error, signal, other
}

/// A D-Bus message; owns one reference to the libdbus `DBusMessage` and drops it on deinit.
public final class Message {
    let raw: OpaquePointer

    /// Takes over a reference that the caller owns (a message libdbus just created or returned).
    init(owning raw: OpaquePointer) {
        self.raw = raw
    }

    /// Adds a reference of its own to a message that libdbus only lends (one passed to a handler).
    package init(borrowing raw: OpaquePointer) {
        self.raw = dbus_message_ref(raw)
    }

    deinit {
        dbus_message_unref(raw)
    }

    // Strings go to libdbus through `withCString`, which lends a native string's own bytes; passing a `String`
    // where C expects a pointer would copy it into a new array on every call.

    /// A method call (`dbus_message_new_method_call`).
    public static func methodCall(
        destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName
    ) -> Message {
        destination.map(\.rawValue).withOptionalCString { destination in
            path.rawValue.withCString { path in
                interface.map(\.rawValue).withOptionalCString { interface in
                    member.rawValue.withCString { member in
                        Message(owning: allocated(dbus_message_new_method_call(destination, path, interface, member)))
                    }
                }
            }
        }
    }

    /// A signal (`dbus_message_new_signal`), to every connection whose rules match it, or to `destination` alone,
    /// which receives it whatever its rules.
    public static func signal(
        path: ObjectPath, interface: InterfaceName, member: MemberName, destination: BusName? = nil
    ) -> Message {
        let signal = path.rawValue.withCString { path in
            interface.rawValue.withCString { interface in
                member.rawValue.withCString { member in
                    Message(owning: allocated(dbus_message_new_signal(path, interface, member)))
                }
            }
        }
        if let destination, dbus_message_set_destination(signal.raw, destination.rawValue) == 0 {
            fatalError("libdbus is out of memory setting a destination")
        }
        return signal
    }

    /// A copy with its own serial, to be sent again (`dbus_message_copy`): copying the bytes of a built message
    /// costs a fraction of building it, for messages that are sent again and again with the same contents.
    public func copy() -> Message {
        Message(owning: allocated(dbus_message_copy(raw)))
    }

    /// The successful reply to this method call (`dbus_message_new_method_return`).
    public func makeReturn() -> Message {
        Message(owning: allocated(dbus_message_new_method_return(raw)))
    }

    /// The successful reply to this method call, carrying `value`.
    @inlinable
    public func makeReturn<Value: DBusEncodable>(with value: Value) -> Message {
        let reply = makeReturn()
        reply.append(value)
        return reply
    }

    /// The error reply to this method call (`dbus_message_new_error`).
    public func makeErrorReply(_ error: DBusError) -> Message {
        error.name.rawValue.withCString { name in
            error.message.withCString { text in Message(owning: allocated(dbus_message_new_error(raw, name, text))) }
        }
    }

    public var type: MessageType {
        switch dbus_message_get_type(raw) {
        case CDBUS_MESSAGE_TYPE_METHOD_CALL: .methodCall
        case CDBUS_MESSAGE_TYPE_METHOD_RETURN: .methodReturn
        case CDBUS_MESSAGE_TYPE_ERROR: .error
        case CDBUS_MESSAGE_TYPE_SIGNAL: .signal
        default: .other
        }
    }

    public var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    public var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    public var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    public var sender: String? { dbus_message_get_sender(raw).map { String(cString: $0) } }
    /// The one connection a message is for; nil for a signal to everyone whose rules match it.
    public var destination: String? { dbus_message_get_destination(raw).map { String(cString: $0) } }

    /// Names the message's sender, as the bus does for every message it delivers: for calls built and answered in
    /// memory, such as a test's.
    public func setSender(_ sender: BusName) {
        guard dbus_message_set_sender(raw, sender.rawValue) != 0 else {
            fatalError("libdbus is out of memory setting a sender")
        }
    }
    public var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }

    /// The message's serial (`dbus_message_get_serial`): 0 until a connection sends it and numbers it. Setting one
    /// (`dbus_message_set_serial`) is for messages built and answered in memory, such as a test's calls, since a
    /// reply needs the serial of the call it answers.
    public var serial: UInt32 {
        get { dbus_message_get_serial(raw) }
        set { dbus_message_set_serial(raw, newValue) }
    }

    /// For a reply or error, the serial of the call it answers (as `Connection.send` returned it); 0 otherwise.
    public var replySerial: UInt32 { dbus_message_get_reply_serial(raw) }

    /// The signature of the body, "" when it has no arguments.
    public var signature: String { String(cString: dbus_message_get_signature(raw)) }

    /// Whether the body's signature is exactly `signature` (`dbus_message_has_signature`), without copying it.
    public func hasSignature(_ signature: String) -> Bool {
        signature.withCString { dbus_message_has_signature(raw, $0) != 0 }
    }

    /// Whether the message is addressed to `path` (`dbus_message_has_path`), compared without copying it.
    public func hasPath(_ path: ObjectPath) -> Bool {
        path.rawValue.withCString { dbus_message_has_path(raw, $0) != 0 }
    }

    /// Whether the message names `interface` (`dbus_message_has_interface`), compared without copying it.
    public func hasInterface(_ interface: InterfaceName) -> Bool {
        interface.rawValue.withCString { dbus_message_has_interface(raw, $0) != 0 }
    }

    /// Whether the message comes from `sender` (`dbus_message_has_sender`), compared without copying it.
    public func hasSender(_ sender: BusName) -> Bool {
        sender.rawValue.withCString { dbus_message_has_sender(raw, $0) != 0 }
    }

    /// Whether the message names `member` (`dbus_message_has_member`), compared without copying it.
    public func hasMember(_ member: MemberName) -> Bool {
        member.rawValue.withCString { dbus_message_has_member(raw, $0) != 0 }
    }

    /// The interface and member fields as libdbus holds them, valid while the message lives: read once, they are
    /// compared with every name a call could match (`DBusName.names(_:)`) without asking libdbus each time.
    var interfaceField: UnsafePointer<CChar>? { dbus_message_get_interface(raw) }
    var memberField: UnsafePointer<CChar>? { dbus_message_get_member(raw) }

    /// Whether this is the signal `member` of `interface` (`dbus_message_is_signal`).
    public func isSignal(interface: InterfaceName, member: MemberName) -> Bool {
        interface.rawValue.withCString { interface in
            member.rawValue.withCString { dbus_message_is_signal(raw, interface, $0) != 0 }
        }
    }

    /// Whether the sender waits for a reply; false when it set NO_REPLY_EXPECTED.
    public var expectsReply: Bool {
        get { dbus_message_get_no_reply(raw) == 0 }
        set { dbus_message_set_no_reply(raw, newValue ? 0 : 1) }
    }

    /// Whether the bus may start the destination's service to deliver this call (`dbus_message_set_auto_start`);
    /// true by default. Off for observers, which should see a service that is not running, not start it.
    public var autoStart: Bool {
        get { dbus_message_get_auto_start(raw) != 0 }
        set { dbus_message_set_auto_start(raw, newValue ? 1 : 0) }
    }

    /// The error carried by an error reply, nil for any other message.
    public var error: DBusError? {
        guard type == .error, let name = errorName else { return nil }
        var reader = arguments()
        let text = (try? reader.read(String.self)) ?? ""
        return DBusError(ErrorName(trusted: name), text)
    }

    /// A reader positioned at the first argument.
    public func arguments() -> MessageReader {
        MessageReader(message: self)
    }

    /// Appends arguments to the body.
    public func appendArguments(_ write: (inout MessageWriter) -> Void) {
        var writer = MessageWriter(message: self)
        write(&writer)
    }

    /// Appends one value to the body.
    public func append<Value: DBusEncodable>(_ value: Value) {
        appendArguments { $0.append(value) }
    }
}

/// libdbus returns NULL from its constructors only when memory is exhausted; like GLib, we stop there.
func allocated(_ pointer: OpaquePointer?, function: StaticString = #function) -> OpaquePointer {
    guard let pointer else { fatalError("libdbus is out of memory in \(function)") }
    return pointer
}
