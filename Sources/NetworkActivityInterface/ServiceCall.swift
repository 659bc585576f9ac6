public import DBusKit

extension Message {
    /// A call of `member` on the service's object, with `arguments`: how every client of the project addresses
    /// the service.
    public static func serviceCall(
        _ member: MemberName, interface: InterfaceName = ServiceNames.interface,
        arguments: (inout MessageWriter) -> Void = { _ in }
    ) -> Message {
        let call = methodCall(destination: ServiceNames.busName, path: ServiceNames.objectPath, interface: interface,
                              member: member)
        call.appendArguments(arguments)
        return call
    }
}
