// SPDX-License-Identifier: Apache-2.0
extension Connection {
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
