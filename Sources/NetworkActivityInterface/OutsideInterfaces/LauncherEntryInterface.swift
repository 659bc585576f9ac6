// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// `com.canonical.Unity.LauncherEntry`, libunity's protocol by which an app shows its progress on its launcher in
/// docks and task bars: the service reads it (a source of activities), the tray sends it (`--dock-progress`).
public enum LauncherEntryInterface {
    public static let interface: InterfaceName = "com.canonical.Unity.LauncherEntry"
    private static let updateName: MemberName = "Update"
    /// `Update(s app_uri, a{sv} properties)`, as a dock reads it: `progress` (d, 0 to 1), `progress-visible` (b).
    public static let update = Signal(updateName, of: interface, Argument<String>("app_uri"),
                                      Argument<[String: ReceivedVariant]>("properties"))
    /// The same signal, as a sender writes it.
    public static let sentUpdate = Signal(updateName, of: interface, Argument<String>("app_uri"),
                                          Argument<[String: Variant]>("properties"))

    /// `application://ID.desktop`: how an update names the app by its desktop file id.
    public static func appURI(ofDesktopID id: String) -> String {
        uriPrefix + id + uriSuffix
    }

    /// The desktop file id an app URI names; nil for one that names none (a path, a file URI, nothing).
    public static func desktopID(ofURI uri: String) -> String? {
        guard uri.hasPrefix(uriPrefix), uri.hasSuffix(uriSuffix) else { return nil }
        let id = uri.dropFirst(uriPrefix.count).dropLast(uriSuffix.count)
        guard !id.isEmpty, !id.contains("/") else { return nil }
        return String(id)
    }

    private static let uriPrefix = "application://"
    private static let uriSuffix = ".desktop"
}
