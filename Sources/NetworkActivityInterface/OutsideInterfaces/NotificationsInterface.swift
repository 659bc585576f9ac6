// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// `org.freedesktop.Notifications`, the Desktop Notifications Specification's server: the members the programs
/// call and follow, declared once (the tray's notices and progress notifications, `netactivity run --notify`).
public enum NotificationsInterface {
    public static let server = RemoteObject(
        "org.freedesktop.Notifications", at: "/org/freedesktop/Notifications", "org.freedesktop.Notifications")

    /// Shows a notification in place of `replaces_id` (0: a new one); returns the server's id of it.
    public static let notify = Method(
        "Notify", of: server.interface, Argument<String>("app_name"), Argument<UInt32>("replaces_id"),
        Argument<String>("app_icon"), Argument<String>("summary"), Argument<String>("body"),
        Argument<[String]>("actions"), Argument<[String: Variant]>("hints"), Argument<Int32>("expire_timeout"),
        output: Argument<UInt32>("id"))
    /// What the server can do: `actions`, `body-markup`, …
    public static let getCapabilities = Method(
        "GetCapabilities", of: server.interface, output: Argument<[String]>("capabilities"))
    /// The server's name, first of its answer (then its vendor, version and the specification's version, which
    /// nothing here reads).
    public static let getServerInformation = Method(
        "GetServerInformation", of: server.interface, output: Argument<String>("name"))
    /// An action of a notification was clicked: its id and the action's key.
    public static let actionInvoked = Signal(
        "ActionInvoked", of: server.interface, Argument<UInt32>("id"), Argument<String>("action_key"))
}
