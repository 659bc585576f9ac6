// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// Every member of `org.example.NetworkActivity.Usage`, declared once, as
/// `dbus/org.example.NetworkActivity.Usage.xml` defines it: the system service binds its handlers to these, a
/// session service passes them on (`SystemServiceRelay`), and clients build their calls with them.
public enum UsageMembers {
    private static let interface = ServiceNames.usageInterface

    /// The data each app used, per user and network, from the day `since` (`YYYY-MM-DD`; empty: all kept): per
    /// day with `daily`, else summed over the days.
    public static let getUsage = Method(
        "GetUsage", of: interface, Argument<String>("since"), Argument<Bool>("daily"),
        output: Argument<[UsageRecord]>("usage"))
    public static let clearUsage = Method("ClearUsage", of: interface, output: Argument<UInt32>("count"))
    /// At most once a minute while anything moves, to the connections that read `GetUsage` and may see a row
    /// that changed; a session service sends it on to its own bus.
    public static let usageChanged = Signal("UsageChanged", of: interface)

    public static let all: [any InterfaceMember] = [getUsage, clearUsage, usageChanged]
}
