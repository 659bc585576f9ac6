// SPDX-License-Identifier: Apache-2.0
import DBusKit

/// Every member of `org.kde.StatusNotifierItem` that the tray's item serves, declared once, as
/// `dbus/org.kde.StatusNotifierItem.xml` defines it: `ItemInterface.swift` binds the handlers to these, and
/// `ItemContractTests` compares them with the XML.
enum ItemMembers {
    private static let interface = StatusNotifierItem.interface

    static let activate = Method("Activate", of: interface, Argument<Int32>("x"), Argument<Int32>("y"))
    static let secondaryActivate = Method("SecondaryActivate", of: interface, Argument<Int32>("x"), Argument<Int32>("y"))
    static let contextMenu = Method("ContextMenu", of: interface, Argument<Int32>("x"), Argument<Int32>("y"))
    static let scroll = Method("Scroll", of: interface, Argument<Int32>("delta"), Argument<String>("orientation"))

    static let category = Property<String>("Category", of: interface)
    static let id = Property<String>("Id", of: interface)
    static let title = Property<String>("Title", of: interface)
    static let status = Property<String>("Status", of: interface)
    static let windowID = Property<Int32>("WindowId", of: interface)
    static let iconThemePath = Property<String>("IconThemePath", of: interface)
    static let iconName = Property<String>("IconName", of: interface)
    static let iconPixmap = Property<[IconPixmap]>("IconPixmap", of: interface)
    static let overlayIconName = Property<String>("OverlayIconName", of: interface)
    static let overlayIconPixmap = Property<[IconPixmap]>("OverlayIconPixmap", of: interface)
    static let attentionIconName = Property<String>("AttentionIconName", of: interface)
    static let attentionIconPixmap = Property<[IconPixmap]>("AttentionIconPixmap", of: interface)
    static let attentionMovieName = Property<String>("AttentionMovieName", of: interface)
    static let toolTip = Property<ToolTip>("ToolTip", of: interface)
    static let itemIsMenu = Property<Bool>("ItemIsMenu", of: interface)
    static let menu = Property<ObjectPath>("Menu", of: interface)

    static let newTitle = Signal("NewTitle", of: interface)
    static let newIcon = Signal("NewIcon", of: interface)
    static let newAttentionIcon = Signal("NewAttentionIcon", of: interface)
    static let newOverlayIcon = Signal("NewOverlayIcon", of: interface)
    static let newToolTip = Signal("NewToolTip", of: interface)
    static let newStatus = Signal("NewStatus", of: interface, Argument<String>("status"))

    /// Every member above, for the contract test's count.
    static let all: [any InterfaceMember] = [
        activate, secondaryActivate, contextMenu, scroll, category, id, title, status, windowID, iconThemePath,
        iconName, iconPixmap, overlayIconName, overlayIconPixmap, attentionIconName, attentionIconPixmap,
        attentionMovieName, toolTip, itemIsMenu, menu, newTitle, newIcon, newAttentionIcon, newOverlayIcon,
        newToolTip, newStatus,
    ]
}
