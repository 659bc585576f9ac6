// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// What a StatusNotifierItem shows, as hosts read it through its properties.
public struct ItemContent: Sendable, Equatable {
    public var title: String
    public var status: ItemStatus
    /// A themed icon name; hosts prefer it to `iconPixmaps` when their theme has it.
    public var iconName: String
    /// The same icon, drawn, for hosts and themes without the name.
    public var iconPixmaps: [IconPixmap]
    public var attentionIconName: String
    public var toolTip: ToolTip

    public init(title: String, status: ItemStatus, iconName: String, iconPixmaps: [IconPixmap],
                attentionIconName: String = "", toolTip: ToolTip) {
        self.title = title
        self.status = status
        self.iconName = iconName
        self.iconPixmaps = iconPixmaps
        self.attentionIconName = attentionIconName
        self.toolTip = toolTip
    }
}

/// The item's `Status`.
public enum ItemStatus: String, Sendable {
    /// Shown.
    case active = "Active"
    /// Of no interest now: some hosts hide it, some do not.
    case passive = "Passive"
    /// Wants the user's attention: hosts show `AttentionIconName`.
    case needsAttention = "NeedsAttention"
}

/// One size of an icon, `(iiay)`: width, height and ARGB32 pixels in network byte order (alpha first).
public struct IconPixmap: DBusEncodable, Sendable, Equatable {
    public static var dbusSignature: String { "(iiay)" }

    public var width: Int32
    public var height: Int32
    public var argb: [UInt8]

    public init(width: Int32, height: Int32, argb: [UInt8]) {
        self.width = width
        self.height = height
        self.argb = argb
    }

    public func encode(to writer: inout MessageWriter) {
        writer.appendStruct(of: width, height, argb)
    }
}

/// The item's `ToolTip`, `(sa(iiay)ss)`: an icon name, its pixmaps, a title and a text that hosts may read as
/// markup.
public struct ToolTip: DBusEncodable, Sendable, Equatable {
    public static var dbusSignature: String { "(sa(iiay)ss)" }

    public var iconName: String
    public var iconPixmaps: [IconPixmap]
    public var title: String
    public var text: String

    public init(iconName: String = "", iconPixmaps: [IconPixmap] = [], title: String, text: String) {
        self.iconName = iconName
        self.iconPixmaps = iconPixmaps
        self.title = title
        self.text = text
    }

    public func encode(to writer: inout MessageWriter) {
        writer.appendStruct(of: iconName, iconPixmaps, title, text)
    }
}
