#if DEBUG  // A fuzz target reads internals (@testable), which a debug build alone compiles for: ReleaseBuild.swift.
import DBusKit
@testable import DesktopIndicator
import FuzzingSupport

extension TrayScene {
    /// What hosts call: the item's properties and clicks, the menu's layout, properties, events and openings,
    /// right and wrong in their arguments, and the rows and content changing between them.
    static func seeds() -> [String: [UInt8]] {
        func call(_ member: MemberName, _ interface: InterfaceName?, at path: ObjectPath,
                  _ arguments: (inout MessageWriter) -> Void = { _ in }) -> [UInt8] {
            let message = Message.methodCall(destination: ":1.2", path: path, interface: interface, member: member)
            message.appendArguments(arguments)
            return [0] + WireMessage.bytes(of: message)
        }
        func item(_ member: MemberName, _ arguments: (inout MessageWriter) -> Void = { _ in }) -> [UInt8] {
            call(member, StatusNotifierItem.interface, at: StatusNotifierItem.objectPath, arguments)
        }
        func menu(_ member: MemberName, _ arguments: (inout MessageWriter) -> Void = { _ in }) -> [UInt8] {
            call(member, MenuObject.interface, at: MenuObject.path, arguments)
        }
        func getAll(_ interface: InterfaceName, at path: ObjectPath) -> [UInt8] {
            call(StandardInterface.getAll.name, StandardInterface.properties, at: path) { $0.append(interface.rawValue) }
        }
        let newRows: [UInt8] = [2, 3, 5, 2] + [5] + Array("hello".utf8) + [0, 9, 1, 3] + Array("new".utf8) + [4] + Array("icon".utf8) + [7, 0]
        let newContent: [UInt8] = [3, 0, 7] + Array("Network".utf8) + [0, 1, 1, 2, 3, 4, 2] + Array("ok".utf8) + [0]
        return [
            "item-properties": getAll(StatusNotifierItem.interface, at: StatusNotifierItem.objectPath),
            "item-get": call(StandardInterface.get.name, StandardInterface.properties, at: StatusNotifierItem.objectPath) {
                $0.append(StatusNotifierItem.interface.rawValue); $0.append("ToolTip")
            },
            "activate": item("Activate") { $0.append(Int32(10)); $0.append(Int32(20)) },
            "scroll": item("Scroll") { $0.append(Int32(1)); $0.append("vertical") },
            "context-menu-wrong": item("ContextMenu") { $0.append("x") },
            "menu-properties": getAll(MenuObject.interface, at: MenuObject.path),
            "layout": menu("GetLayout") { $0.append(Int32(0)); $0.append(Int32(-1)); $0.append(["label", "enabled"]) },
            "layout-row": menu("GetLayout") { $0.append(Int32(100)); $0.append(Int32(1)); $0.append([String]()) },
            "layout-unknown": menu("GetLayout") { $0.append(Int32(55)); $0.append(Int32(0)); $0.append([String]()) },
            "group-properties": menu("GetGroupProperties") { $0.append([Int32(1), 3, 77]); $0.append(["label"]) },
            "property": menu("GetProperty") { $0.append(Int32(3)); $0.append("label") },
            "event": menu("Event") {
                $0.append(Int32(3)); $0.append("clicked"); $0.append(Variant(Int32(0))); $0.append(UInt32(0))
            },
            "event-unknown": menu("Event") {
                $0.append(Int32(42)); $0.append("clicked"); $0.append(Variant("")); $0.append(UInt32(0))
            },
            "about-to-show": menu("AboutToShow") { $0.append(Int32(0)) },
            "about-to-show-group": menu("AboutToShowGroup") { $0.append([Int32(0), 3, 9]) },
            "introspect": call(StandardInterface.introspect.name, StandardInterface.introspectable, at: MenuObject.path),
            "changes": newRows + menu("GetLayout") { $0.append(Int32(0)); $0.append(Int32(-1)); $0.append([String]()) }
                + newContent + item("Activate") { $0.append(Int32(0)); $0.append(Int32(0)) },
        ]
    }
}
#endif
