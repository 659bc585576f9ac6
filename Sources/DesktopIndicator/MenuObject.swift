// SPDX-License-Identifier: Apache-2.0
import DBusKit

/// A tray item's menu, the object at `/MenuBar` that hosts read in the dbusmenu protocol: a root (item 0) with
/// its rows, and under some of them the rows of a submenu, served from the interface `MenuInterface.swift` declares. Every change of the rows is a new
/// revision, announced with `LayoutUpdated`, so that a host with the menu open draws it again.
///
/// Like `ItemObject`, it meets the bus only through its served object's `send`.
final class MenuObject {
    static let path: ObjectPath = "/MenuBar"
    static let interface = MenuMembers.interface

    /// The layout's version; hosts compare it with the one they drew.
    private(set) var revision: UInt32 = 1
    private(set) var rows: [MenuItem]
    /// Every item at any depth, by id.
    private var items: [Int32: MenuItem]
    /// Called on a row's events: "clicked", and on the root, "opened" and "closed".
    let onEvent: (_ id: Int32, _ event: String) -> Void
    /// Called before a host shows the menu, so that the rows can be brought up to date (`update`).
    let onOpening: () -> Void
    private(set) var object: ServedObject!

    init(rows: [MenuItem], send: @escaping (Message) -> Void,
         onEvent: @escaping (_ id: Int32, _ event: String) -> Void, onOpening: @escaping () -> Void) {
        self.rows = rows
        items = Self.byID(rows)
        self.onEvent = onEvent
        self.onOpening = onOpening
        object = ServedObject(self, at: Self.path, interfaces: [Self.declaration],
                              introspectionXML: Self.introspectionXML, send: send)
    }

    /// Shows `newRows`: a new revision, when they differ from the rows shown, and when `announcing`,
    /// `LayoutUpdated`. Returns whether it announced the change.
    @discardableResult
    func update(_ newRows: [MenuItem], announcing: Bool) -> Bool {
        guard newRows != rows else { return false }
        rows = newRows
        items = Self.byID(newRows)
        revision &+= 1
        guard announcing else { return false }
        object.emit(object.makeSignal(MenuMembers.layoutUpdated, revision, MenuItem.rootID))
        return true
    }

    func contains(_ id: Int32) -> Bool {
        id == MenuItem.rootID || items[id] != nil
    }

    /// The subtree under `id`, `depth` levels of children deep (-1 for all), with the properties of `names`.
    func layout(under id: Int32, depth: Int32, properties names: [String]) throws(DBusError) -> MenuLayoutNode {
        if id == MenuItem.rootID {
            return MenuLayoutNode(id: id, properties: MenuItem.rootProperties(named: names),
                                  children: Self.layouts(of: rows, depth: depth, properties: names))
        }
        let item = try row(id)
        return MenuLayoutNode(id: id, properties: item.properties(named: names),
                              children: Self.layouts(of: item.children, depth: depth, properties: names))
    }

    /// The nodes of `items`, with `depth` levels of children under each that are left (-1 for all).
    private static func layouts(of items: [MenuItem], depth: Int32, properties names: [String]) -> [MenuLayoutNode] {
        guard depth != 0 else { return [] }
        return items.map {
            MenuLayoutNode(id: $0.id, properties: $0.properties(named: names),
                           children: layouts(of: $0.children, depth: depth - 1, properties: names))
        }
    }

    /// The properties of `names` of the items `ids`, of every item for none; unknown ids are left out.
    func properties(of ids: [Int32], named names: [String]) -> [MenuItemProperties] {
        let wanted = ids.isEmpty ? [MenuItem.rootID] + rows.flatMap(\.withDescendants).map(\.id) : ids
        return wanted.compactMap { id in
            if id == MenuItem.rootID {
                return MenuItemProperties(id: id, properties: MenuItem.rootProperties(named: names))
            }
            return items[id].map {
                MenuItemProperties(id: id, properties: $0.properties(named: names))
            }
        }
    }

    func row(_ id: Int32) throws(DBusError) -> MenuItem {
        guard let row = items[id] else { throw Self.unknownItem(id) }
        return row
    }

    /// Brings the rows up to date for a host about to show the menu; true when that made a new revision.
    func prepareToShow() -> Bool {
        let before = revision
        onOpening()
        return revision != before
    }

    private static func byID(_ rows: [MenuItem]) -> [Int32: MenuItem] {
        Dictionary(rows.flatMap(\.withDescendants).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    static func unknownItem(_ id: Int32) -> DBusError {
        DBusError(.invalidArgs, "the menu has no item \(id)")
    }
}
