public import DBusKit

/// Where the service lives on the bus, as `dbus/org.example.NetworkActivity.xml` defines it.
public enum ServiceNames {
    public static let busName: BusName = "org.example.NetworkActivity"
    public static let objectPath: ObjectPath = "/org/example/NetworkActivity"
    public static let interface: InterfaceName = "org.example.NetworkActivity"

    public static let properties: InterfaceName = "org.freedesktop.DBus.Properties"
    public static let introspectable: InterfaceName = "org.freedesktop.DBus.Introspectable"
    public static let peer: InterfaceName = "org.freedesktop.DBus.Peer"
}
