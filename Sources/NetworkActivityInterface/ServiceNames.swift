public import DBusKit

/// Where the service lives on the bus, as `dbus/org.example.NetworkActivity.xml` defines it.
public enum ServiceNames {
    /// The well-known name the service owns.
    public static let busName: BusName = "org.example.NetworkActivity"
    /// The one object the service exports.
    public static let objectPath: ObjectPath = "/org/example/NetworkActivity"
    /// The service's own interface.
    public static let interface: InterfaceName = "org.example.NetworkActivity"

    /// The interface's properties.
    public enum Property {
        /// `b`: whether the indicator should show now.
        public static let visible = "Visible"
        /// `u`: how many activities are active.
        public static let activeCount = "ActiveCount"
    }

    /// Marks, in a session service's `ListActivities`, the system service's activities: their owner is this
    /// followed by their owner's unique name on the system bus, such as `system::1.42`.
    public static let systemOwnerPrefix = "system:"

    /// The interface's own signals: `VisibilityChanged(b visible)`,
    public static let visibilityChanged: MemberName = "VisibilityChanged"
    /// `ActivitiesChanged(a(ua{sv}) changed, au ended)`,
    public static let activitiesChanged: MemberName = "ActivitiesChanged"
    /// and `CancelRequested(u id)`, sent to the connection that will stop the activity alone.
    public static let cancelRequested: MemberName = "CancelRequested"

    // The object also implements the standard interfaces, named in DBusKit's `StandardInterface`.
}
