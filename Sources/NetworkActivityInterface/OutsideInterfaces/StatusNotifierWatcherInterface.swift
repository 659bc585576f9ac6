// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// `org.kde.StatusNotifierWatcher`, where a StatusNotifierItem registers so that the panels' trays (its hosts)
/// show it: the members the tray calls and follows, declared once.
public enum StatusNotifierWatcherInterface {
    public static let watcher = RemoteObject(
        "org.kde.StatusNotifierWatcher", at: "/StatusNotifierWatcher", "org.kde.StatusNotifierWatcher")

    /// Registers the item a bus name serves.
    public static let registerItem = Method(
        "RegisterStatusNotifierItem", of: watcher.interface, Argument<String>("service"))
    /// A host (a tray) came: items register again, for a watcher that refused them before it had one.
    public static let hostRegistered = Signal("StatusNotifierHostRegistered", of: watcher.interface)
    /// An item left the watcher's list, by its bus name.
    public static let itemUnregistered = Signal(
        "StatusNotifierItemUnregistered", of: watcher.interface, Argument<String>("service"))
}
