// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// Where the service lives on the bus, as `dbus/org.example.NetworkActivity.xml` defines it.
public enum ServiceNames {
    /// The well-known name the service owns.
    public static let busName: BusName = "org.example.NetworkActivity"
    /// The object of the service's own interface.
    public static let objectPath: ObjectPath = "/org/example/NetworkActivity"
    /// The service's own interface.
    public static let interface: InterfaceName = "org.example.NetworkActivity"
    /// The data each app used (`UsageMembers`), served at its own object.
    public static let usageInterface: InterfaceName = "org.example.NetworkActivity.Usage"
    public static let usagePath: ObjectPath = "/org/example/NetworkActivity/Usage"
    /// Holding an app's network back (`PauseMembers`), served at its own object.
    public static let pauseInterface: InterfaceName = "org.example.NetworkActivity.Pause"
    public static let pausePath: ObjectPath = "/org/example/NetworkActivity/Pause"
    /// Apps' speed limits (`LimitsMembers`), served at its own object.
    public static let limitsInterface: InterfaceName = "org.example.NetworkActivity.Limits"
    public static let limitsPath: ObjectPath = "/org/example/NetworkActivity/Limits"
    /// The machine's data plans (`PlansMembers`), served at its own object.
    public static let plansInterface: InterfaceName = "org.example.NetworkActivity.Plans"
    public static let plansPath: ObjectPath = "/org/example/NetworkActivity/Plans"

    /// The object that serves `interface`: each of the service's interfaces has its own, named after it.
    public static func objectPath(serving interface: InterfaceName) -> ObjectPath {
        switch interface {
        case usageInterface: usagePath
        case pauseInterface: pausePath
        case limitsInterface: limitsPath
        case plansInterface: plansPath
        default: objectPath
        }
    }

    /// Marks, in a session service's `ListActivities`, the system service's activities: their owner is this
    /// followed by their owner's unique name on the system bus, such as `system::1.42`.
    public static let systemOwnerPrefix = "system:"
    /// Owned by the project's GNOME Shell extension while it is enabled: `netactivity-tray` leaves the tray while
    /// this name has an owner, so that GNOME shows one indicator.
    public static let shellIndicatorName: BusName = "org.example.NetworkActivity.ShellIndicator"

    // Their members are declared in `ServiceMembers`, `UsageMembers`, `PauseMembers`, `LimitsMembers` and
    // `PlansMembers`; each object also implements the standard interfaces, named in DBusKit's `StandardInterface`.
}
