// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// NetworkManager on the system bus, `org.freedesktop.NetworkManager`: the members the system service reads to
/// name the networks that data usage is counted on (a device's connection, and whether it is metered), declared
/// once.
public enum NetworkManagerInterface {
    public static let manager = RemoteObject(
        "org.freedesktop.NetworkManager", at: "/org/freedesktop/NetworkManager", "org.freedesktop.NetworkManager")
    public static let deviceInterface: InterfaceName = "org.freedesktop.NetworkManager.Device"
    public static let activeConnectionInterface: InterfaceName = "org.freedesktop.NetworkManager.Connection.Active"

    /// The devices it knows, managed or not.
    public static let getDevices = Method("GetDevices", of: manager.interface, output: Argument<[ObjectPath]>("devices"))
    public static let deviceAdded = Signal("DeviceAdded", of: manager.interface, Argument<ObjectPath>("device"))
    public static let deviceRemoved = Signal("DeviceRemoved", of: manager.interface, Argument<ObjectPath>("device"))

    /// A device's properties that name its network: `Ifindex` (i, since 1.48), `Interface` and `IpInterface`
    /// (s), `Metered` (u, `NMMetered`), `ActiveConnection` (o, `/` for none); of an active connection: `Id` (s),
    /// the connection's name for people.
    public enum Property {
        public static let interfaceIndex = "Ifindex"
        public static let interface = "Interface"
        public static let ipInterface = "IpInterface"
        public static let metered = "Metered"
        public static let activeConnection = "ActiveConnection"
        public static let id = "Id"
    }

    /// `NMMetered`'s values that mean metered: yes (1) and guess-yes (3), a phone's hotspot.
    public static func isMetered(_ value: UInt32) -> Bool {
        value == 1 || value == 3
    }
}
