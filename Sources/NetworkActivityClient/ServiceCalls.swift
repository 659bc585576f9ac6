import DBusKit
import NetworkActivityInterface

extension BlockingCalls {
    /// Calls a method of the service's object. With `autoStart` off, a service that is not running is not
    /// started to answer: the bus throws `ServiceUnknown` instead.
    func callService(
        _ member: MemberName, interface: InterfaceName = ServiceNames.interface, timeout: Duration,
        autoStart: Bool = true, arguments: (inout MessageWriter) -> Void = { _ in }
    ) throws(DBusError) -> MessageReader {
        let message = Message.serviceCall(member, interface: interface, arguments: arguments)
        message.autoStart = autoStart
        return try call(message, timeout: timeout).arguments()
    }

    /// Reads `Visible` and `ActiveCount` in one `GetAll`.
    func readServiceProperties(timeout: Duration, autoStart: Bool = true) throws(DBusError) -> ServiceProperties {
        var reply = try callService("GetAll", interface: StandardInterface.properties, timeout: timeout,
                                    autoStart: autoStart) { $0.append(ServiceNames.interface.rawValue) }
        let values = try reply.read([String: ReceivedVariant].self)
        guard let visible = values[ServiceNames.Property.visible],
              let count = values[ServiceNames.Property.activeCount] else {
            throw DBusError(.invalidArgs, "the service's properties lack Visible or ActiveCount")
        }
        return ServiceProperties(isVisible: try visible.decode(Bool.self),
                                 activeCount: try count.decode(UInt32.self))
    }
}

/// The service's properties.
struct ServiceProperties: Equatable {
    var isVisible: Bool
    var activeCount: UInt32
}
