// SPDX-License-Identifier: Apache-2.0
import DBusKit

/// A tray item's menu, the object at `/MenuBar` that hosts read in the dbusmenu protocol: a root (item 0) with
/// one level of rows, served from the interface `MenuInterface.swift` declares. Every change of the rows is a new
/// revision, announced with `LayoutUpdated`, so that a host with the menu open draws it again.
///
/// Like `ItemObject`, it meets the bus only through its served object's `send`.
final class MenuObject {
    static let path: ObjectPath = "/MenuBar"
    static let interface = MenuMembers.interface

    /// The layout's version; hosts compare it with the one they drew.
    private(set) var revision: UInt32 = 1
    private(set) var rows: [MenuItem]
    /// Called on a row's events: "clicked", and on the root, "opened" and "closed".
    let onEvent: (_ id: Int32, _ event: String) -> Void
    /// Called before a host shows the menu, so that the rows can be brought up to date (`update`).
    let onOpening: () -> Void
    private(set) var object: ServedObject!

    init(rows: [MenuItem], send: @escaping (Message) -> Void,
         onEvent: @escaping (_ id: Int32, _ event: String) -> Void, onOpening: @escaping () -> Void) {
        self.rows = rows
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
        revision &+= 1
        guard announcing else { return false }
        object.emit(object.makeSignal(MenuMembers.layoutUpdated, revision, MenuItem.rootID))
        return true
    }

    func contains(_ id: Int32) -> Bool {
        id == MenuItem.rootID || rows.contains { $0.id == id }
    }

    /// The subtree under `id`, `depth` levels of children deep (-1 for all), with the properties of `names`.
    func layout(under id: Int32, depth: Int32, properties names: [String]) throws(DBusError) -> MenuLayoutNode {
        if id == MenuItem.rootID {
            let children = depth == 0 ? [] : rows.map {
                MenuLayoutNode(id: $0.id, properties: $0.properties(named: names), children: [])
            }
            return MenuLayoutNode(id: id, properties: MenuItem.rootProperties(named: names), children: children)
        }
        return MenuLayoutNode(id: id, properties: try row(id).properties(named: names), children: [])
    }

    /// The properties of `names` of the items `ids`, of every item for none; unknown ids are left out.
    func properties(of ids: [Int32], named names: [String]) -> [MenuItemProperties] {
        let wanted = ids.isEmpty ? [MenuItem.rootID] + rows.map(\.id) : ids
        return wanted.compactMap { id in
            if id == MenuItem.rootID {
                return MenuItemProperties(id: id, properties: MenuItem.rootProperties(named: names))
            }
            return rows.first { $0.id == id }.map {
                MenuItemProperties(id: id, properties: $0.properties(named: names))
            }
        }
    }

    func row(_ id: Int32) throws(DBusError) -> MenuItem {
        guard let row = rows.first(where: { $0.id == id }) else { throw Self.unknownItem(id) }
        return row
    }

    /// Brings the rows up to date for a host about to show the menu; true when that made a new revision.
    func prepareToShow() -> Bool {
        let before = revision
        onOpening()
        return revision != before
    }

    static func unknownItem(_ id: Int32) -> DBusError {
        DBusError(.invalidArgs, "the menu has no item \(id)")
    }
}
