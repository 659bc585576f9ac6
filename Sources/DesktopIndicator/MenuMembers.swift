// SPDX-License-Identifier: Apache-2.0
import DBusKit

/// Every member of `com.canonical.dbusmenu` that the menu serves, declared once, as
/// `dbus/com.canonical.dbusmenu.xml` defines it: `MenuInterface.swift` binds the handlers to these, and
/// `MenuContractTests` compares them with the XML.
enum MenuMembers {
    static let interface: InterfaceName = "com.canonical.dbusmenu"

    static let getLayout = Method(
        "GetLayout", of: interface, Argument<Int32>("parentId"), Argument<Int32>("recursionDepth"),
        Argument<[String]>("propertyNames"), outputs: Argument<UInt32>("revision"), Argument<MenuLayoutNode>("layout"))
    static let getGroupProperties = Method(
        "GetGroupProperties", of: interface, Argument<[Int32]>("ids"), Argument<[String]>("propertyNames"),
        output: Argument<[MenuItemProperties]>("properties"))
    static let getProperty = Method(
        "GetProperty", of: interface, Argument<Int32>("id"), Argument<String>("name"), output: Argument<Variant>("value"))
    static let event = Method(
        "Event", of: interface, Argument<Int32>("id"), Argument<String>("eventId"), Argument<ReceivedVariant>("data"),
        Argument<UInt32>("timestamp"))
    static let eventGroup = Method(
        "EventGroup", of: interface, Argument<[MenuEvent]>("events"), output: Argument<[Int32]>("idErrors"))
    static let aboutToShow = Method("AboutToShow", of: interface, Argument<Int32>("id"), output: Argument<Bool>("needUpdate"))
    static let aboutToShowGroup = Method(
        "AboutToShowGroup", of: interface, Argument<[Int32]>("ids"), outputs: Argument<[Int32]>("updatesNeeded"),
        Argument<[Int32]>("idErrors"))

    static let version = Property<UInt32>("Version", of: interface)
    static let textDirection = Property<String>("TextDirection", of: interface)
    static let status = Property<String>("Status", of: interface)
    static let iconThemePath = Property<[String]>("IconThemePath", of: interface)

    static let itemsPropertiesUpdated = Signal(
        "ItemsPropertiesUpdated", of: interface, Argument<[MenuItemProperties]>("updatedProps"),
        Argument<[RemovedMenuItemProperties]>("removedProps"))
    static let layoutUpdated = Signal("LayoutUpdated", of: interface, Argument<UInt32>("revision"), Argument<Int32>("parent"))
    static let itemActivationRequested = Signal(
        "ItemActivationRequested", of: interface, Argument<Int32>("id"), Argument<UInt32>("timestamp"))

    /// Every member above, for the contract test's count.
    static let all: [any InterfaceMember] = [
        getLayout, getGroupProperties, getProperty, event, eventGroup, aboutToShow, aboutToShowGroup, version,
        textDirection, status, iconThemePath, itemsPropertiesUpdated, layoutUpdated, itemActivationRequested,
    ]
}
