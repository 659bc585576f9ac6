import DBusKit

/// Where the service lives on the bus.
public enum ServiceNames {
    public static let busName: BusName = "org.example.NetworkActivity"
    public static let objectPath: ObjectPath = "/org/example/NetworkActivity"
    public static let interface: InterfaceName = "org.example.NetworkActivity"

    static let properties: InterfaceName = "org.freedesktop.DBus.Properties"
    static let introspectable: InterfaceName = "org.freedesktop.DBus.Introspectable"
    static let peer: InterfaceName = "org.freedesktop.DBus.Peer"
}
