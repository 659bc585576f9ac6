public import DBusKit

/// The service's calls as a blocking client makes them (the tray, which serves its objects on the same connection).
extension Connection {
    /// Calls a method of the service's object. With `autoStart` off, a service that is not running is not
    /// started to answer: the bus throws `ServiceUnknown` instead.
    public func callService(
        _ member: MemberName, interface: InterfaceName = ServiceNames.interface, timeout: Duration,
        autoStart: Bool = true, arguments: (inout MessageWriter) -> Void = { _ in }
    ) throws(DBusError) -> MessageReader {
        let message = Message.serviceCall(member, interface: interface, arguments: arguments)
        message.autoStart = autoStart
        return try call(message, timeout: timeout).arguments()
    }

    /// Reads `Visible` and `ActiveCount` in one `GetAll`.
    public func readServiceProperties(timeout: Duration, autoStart: Bool = true) throws(DBusError) -> ServiceProperties {
        var reply = try callService("GetAll", interface: StandardInterface.properties, timeout: timeout,
                                    autoStart: autoStart) { $0.append(ServiceNames.interface.rawValue) }
        return try ServiceProperties(reading: &reply)
    }
}

/// The service's properties.
public struct ServiceProperties: Equatable, Sendable {
    public var isVisible: Bool
    public var activeCount: UInt32

    public init(isVisible: Bool, activeCount: UInt32) {
        self.isVisible = isVisible
        self.activeCount = activeCount
    }

    /// The properties from the reply to `GetAll`.
    public init(reading reply: inout MessageReader) throws(DBusError) {
        let values = try reply.read([String: ReceivedVariant].self)
        guard let visible = values[ServiceNames.Property.visible],
              let count = values[ServiceNames.Property.activeCount] else {
            throw DBusError(.invalidArgs, "the service's properties lack Visible or ActiveCount")
        }
        self.init(isVisible: try visible.decode(Bool.self), activeCount: try count.decode(UInt32.self))
    }
}
