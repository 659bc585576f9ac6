public import DBusKit

/// `org.kde.StatusNotifierWatcher`, where a StatusNotifierItem registers so that the panels' trays (its hosts)
/// show it: the members the tray calls and follows, declared once.
public enum StatusNotifierWatcherInterface {
    public static let busName: BusName = "org.kde.StatusNotifierWatcher"
    public static let path: ObjectPath = "/StatusNotifierWatcher"
    public static let interface: InterfaceName = "org.kde.StatusNotifierWatcher"

    /// Registers the item a bus name serves.
    public static let registerItem = Method(
        "RegisterStatusNotifierItem", of: interface, Argument<String>("service"))
    /// A host (a tray) came: items register again, for a watcher that refused them before it had one.
    public static let hostRegistered = Signal("StatusNotifierHostRegistered", of: interface)
    /// An item left the watcher's list, by its bus name.
    public static let itemUnregistered = Signal(
        "StatusNotifierItemUnregistered", of: interface, Argument<String>("service"))
}
