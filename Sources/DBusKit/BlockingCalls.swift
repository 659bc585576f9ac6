/// Method calls that wait for their reply, which both kinds of connection make: the bus driver's queries and the
/// conveniences below are written once, for both.
public protocol BlockingCalls {
    /// Sends a method call and waits up to `timeout` for its reply; an error reply is thrown as it is.
    func call(_ message: Message, timeout: Duration) throws(DBusError) -> Message
}

extension BlockingCalls {
    /// Sends a method call and returns a reader of its reply's arguments.
    public func call(
        destination: BusName, path: ObjectPath, interface: InterfaceName, member: MemberName,
        timeout: Duration = .seconds(25), arguments: (inout MessageWriter) -> Void = { _ in }
    ) throws(DBusError) -> MessageReader {
        let message = Message.methodCall(destination: destination, path: path, interface: interface, member: member)
        message.appendArguments(arguments)
        return try call(message, timeout: timeout).arguments()
    }
}
