// SPDX-License-Identifier: Apache-2.0
import DBusKit

/// One row of a tray item's menu, as the dbusmenu protocol gives it to hosts: an id, and the properties `type`,
/// `label`, `enabled`, `visible`, `icon-name`, `accessible-desc`, `toggle-type` and `toggle-state`, and
/// `children-display` for a row that opens a submenu of its `children`. Hosts draw the rows in order under the
/// menu's root, item 0.
public struct MenuItem: Sendable, Equatable {
    /// What sort of row it is (`type`).
    public enum Kind: String, Sendable {
        /// A row with a label, which a click activates when it is enabled.
        case standard
        /// A line between groups of rows.
        case separator
    }

    /// A row that shows whether it is on: a check box, or one of a group of radio buttons.
    public enum Toggle: Sendable, Equatable {
        case checkmark(isOn: Bool)
        case radio(isOn: Bool)

        var type: String {
            switch self {
            case .checkmark: "checkmark"
            case .radio: "radio"
            }
        }

        var state: Int32 {
            switch self {
            case .checkmark(let isOn), .radio(let isOn): isOn ? 1 : 0
            }
        }
    }

    /// Tells the row apart in events; never 0, the root's id.
    public var id: Int32
    public var kind: Kind
    /// The text, in which an underscore marks the access key: write a literal one as two.
    public var label: String
    /// Whether a click on it does anything; hosts grey out the rows that do not.
    public var isEnabled: Bool
    /// An icon of the theme, drawn beside the label; nil for none.
    public var iconName: String?
    /// What a screen reader says of the row where its label is too short to tell ("Pause Firefox’s network" for
    /// "Pause"); nil: its label.
    public var accessibleDescription: String?
    public var toggle: Toggle?
    /// The rows of the submenu it opens; none for a row that a click activates.
    public var children: [MenuItem]

    public init(id: Int32, label: String, isEnabled: Bool = true, iconName: String? = nil,
                accessibleDescription: String? = nil, toggle: Toggle? = nil, children: [MenuItem] = []) {
        precondition(id != MenuItem.rootID, "id 0 is the menu's root")
        self.id = id
        kind = .standard
        self.label = label
        self.isEnabled = isEnabled
        self.iconName = iconName
        self.accessibleDescription = accessibleDescription
        self.toggle = toggle
        self.children = children
    }

    /// A separator with this id.
    public static func separator(id: Int32) -> MenuItem {
        var item = MenuItem(id: id, label: "", isEnabled: true)
        item.kind = .separator
        return item
    }

    /// The root of every menu, whose children are the rows.
    public static let rootID: Int32 = 0

    /// `text` as a label that shows every underscore, since dbusmenu reads one underscore as an access key.
    public static func literalLabel(_ text: String) -> String {
        String(text.flatMap { $0 == "_" ? ["_", "_"] : [$0] })
    }

    /// The row's properties, those of `names` only unless it is empty.
    func properties(named names: [String]) -> [String: Variant] {
        var properties: [String: Variant] = ["visible": Variant(true)]
        if kind == .separator {
            properties["type"] = Variant(kind.rawValue)
        } else {
            properties["label"] = Variant(label)
            properties["enabled"] = Variant(isEnabled)
            if let iconName { properties["icon-name"] = Variant(iconName) }
            if let accessibleDescription { properties["accessible-desc"] = Variant(accessibleDescription) }
            if let toggle {
                properties["toggle-type"] = Variant(toggle.type)
                properties["toggle-state"] = Variant(toggle.state)
            }
            if !children.isEmpty { properties["children-display"] = Variant("submenu") }
        }
        return properties.selecting(names)
    }

    /// The row and every row of its submenus, depth first.
    var withDescendants: [MenuItem] {
        [self] + children.flatMap(\.withDescendants)
    }

    /// The root's properties: its children open as a submenu.
    static func rootProperties(named names: [String]) -> [String: Variant] {
        ["children-display": Variant("submenu")].selecting(names)
    }
}

extension [String: Variant] {
    /// The properties of `names`, every one for none, as dbusmenu asks for them.
    fileprivate func selecting(_ names: [String]) -> [String: Variant] {
        names.isEmpty ? self : filter { names.contains($0.key) }
    }
}

/// One node of `GetLayout`'s answer, `(ia{sv}av)`: an item's id, its properties, and its children, each a variant
/// holding a node of the same type.
struct MenuLayoutNode: DBusEncodable {
    static var dbusSignature: String { "(ia{sv}av)" }

    let id: Int32
    let properties: [String: Variant]
    let children: [MenuLayoutNode]

    func encode(to writer: inout MessageWriter) {
        writer.appendStruct { fields in
            fields.append(id)
            fields.append(properties)
            fields.append(children.map(Variant.init))
        }
    }
}

/// One entry of `GetGroupProperties` and `ItemsPropertiesUpdated`, `(ia{sv})`.
struct MenuItemProperties: DBusEncodable {
    static var dbusSignature: String { "(ia{sv})" }

    let id: Int32
    let properties: [String: Variant]

    func encode(to writer: inout MessageWriter) {
        writer.appendStruct { fields in
            fields.append(id)
            fields.append(properties)
        }
    }
}

/// One entry of `EventGroup`, `(isvu)`: the item, the event's name, its data and its time.
struct MenuEvent: DBusDecodable {
    static var dbusSignature: String { "(isvu)" }

    let id: Int32
    let name: String

    init(from reader: inout MessageReader) throws(DBusError) {
        (id, name) = try reader.readStruct(Self.dbusSignature) { (fields: inout MessageReader) throws(DBusError) in
            let id = try fields.read(Int32.self)
            let name = try fields.read(String.self)
            _ = try fields.read(ReceivedVariant.self)
            _ = try fields.read(UInt32.self)
            return (id, name)
        }
    }
}

/// One entry of `ItemsPropertiesUpdated`'s removed properties, `(ias)`: the menu never sends any, so only its type
/// is declared.
struct RemovedMenuItemProperties: DBusTyped {
    static var dbusSignature: String { "(ias)" }
}
