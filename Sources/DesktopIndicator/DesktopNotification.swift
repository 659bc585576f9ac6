// SPDX-License-Identifier: Apache-2.0
public import DBusKit
import NetworkActivityInterface

/// A desktop notification, as `org.freedesktop.Notifications.Notify` takes it.
public struct DesktopNotification: Sendable, Equatable {
    /// How servers rank it (the hint `urgency`): a critical one stays until the user closes it.
    public enum Urgency: UInt8, Sendable {
        case low = 0, normal = 1, critical = 2
    }

    public var applicationName: String
    public var iconName: String
    public var summary: String
    /// Servers may read it as markup: escape text from elsewhere.
    public var body: String
    public var urgency: Urgency
    /// Pairs of an action's key and its label, where the server offers actions (`ActionInvoked` names the key).
    public var actions: [String]
    /// A bar for a value of 0 to 100 (the hint `value`), drawn by dunst, mako, swaync and xfce4-notifyd.
    public var value: Int32?
    /// Replaces the server's notification of the same tag, whatever its id (`x-canonical-private-synchronous`,
    /// `x-dunst-stack-tag`).
    public var stackTag: String?
    /// Milliseconds it stays; -1: the server's default, 0: until closed.
    public var expireTimeout: Int32

    public init(applicationName: String, iconName: String, summary: String, body: String,
                urgency: Urgency = .normal, actions: [String] = [], value: Int32? = nil, stackTag: String? = nil,
                expireTimeout: Int32 = -1) {
        self.applicationName = applicationName
        self.iconName = iconName
        self.summary = summary
        self.body = body
        self.urgency = urgency
        self.actions = actions
        self.value = value
        self.stackTag = stackTag
        self.expireTimeout = expireTimeout
    }

    /// The `Notify` call that shows it, in place of the notification `replacedID` (0 for none). Like
    /// `notify-send`, it lets the bus start a server that is installed as a D-Bus service (dunst, mako).
    public func notifyCall(replacing replacedID: UInt32 = 0) -> Message {
        var hints = ["urgency": Variant(urgency.rawValue)]
        if let value { hints["value"] = Variant(value) }
        if let stackTag {
            hints["x-canonical-private-synchronous"] = Variant(stackTag)
            hints["x-dunst-stack-tag"] = Variant(stackTag)
        }
        return NotificationsInterface.notify.call(
            applicationName, replacedID, iconName, summary, body, actions, hints, expireTimeout,
            on: NotificationsInterface.server)
    }
}
