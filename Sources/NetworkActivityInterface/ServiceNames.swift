// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// Where the service lives on the bus, as `dbus/org.example.NetworkActivity.xml` defines it.
public enum ServiceNames {
    /// The well-known name the service owns.
    public static let busName: BusName = "org.example.NetworkActivity"
    /// The one object the service exports.
    public static let objectPath: ObjectPath = "/org/example/NetworkActivity"
    /// The service's own interface.
    public static let interface: InterfaceName = "org.example.NetworkActivity"

    /// Marks, in a session service's `ListActivities`, the system service's activities: their owner is this
    /// followed by their owner's unique name on the system bus, such as `system::1.42`.
    public static let systemOwnerPrefix = "system:"
    /// Owned by the project's GNOME Shell extension while it is enabled: `netactivity-tray` leaves the tray while
    /// this name has an owner, so that GNOME shows one indicator.
    public static let shellIndicatorName: BusName = "org.example.NetworkActivity.ShellIndicator"

    // Its members are declared in `ServiceMembers`; the object also implements the standard interfaces, named in
    // DBusKit's `StandardInterface`.
}
