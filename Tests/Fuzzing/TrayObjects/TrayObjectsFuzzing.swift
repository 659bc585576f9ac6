#if DEBUG  // A fuzz target reads internals (@testable), which a debug build alone compiles for: ReleaseBuild.swift.
import DBusKit
@testable import DesktopIndicator
import FuzzingSupport

/// The tray's two objects, the StatusNotifierItem and its dbusmenu, receiving whatever a bus could deliver from
/// a host (docs/reliability.md, "Fuzzing"). An input is a run of events, each an operation byte and what it needs:
///
///     op & 3 in 0...1   a message in its wire form; op & 0x80 sends it to the item's path, op & 0x40 to the
///                       menu's, whatever its own
///     op & 3 == 2       the menu's rows become up to 7 rows of the next bytes (id, kind, label, icon)
///     op & 3 == 3       the item shows new content of the next bytes (status, title, icon, tooltip)
///
/// The oracle: exactly one reply to each call that asks for one, none otherwise (`CallOracle`); events reach the
/// tray only for items the menu has; the revision only grows, and `LayoutUpdated` carries the current one; and
/// after the input the menu's `GetLayout` gives the rows shown, in order, at the revision.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzedBytes(data, count: size)
    TrayScene().play(&input)
    return 0
}

@main
enum TrayObjectsFuzzing {
    static func main() {
        FuzzTarget.main(testOneInput: testOneInput, seeds: TrayScene.seeds)
    }
}

final class TrayScene {
    static let firstRows = [
        MenuItem(id: 1, label: "2 active", isEnabled: false),
        MenuItem(id: 100, label: "Backup Tool: backup — 3 min", isEnabled: false, iconName: "document-save"),
        .separator(id: 2),
        MenuItem(id: 3, label: "Show details"),
    ]
    static let idle = ItemContent(
        title: "Network", status: .passive, iconName: "network-idle",
        iconPixmaps: [IconPixmap(width: 1, height: 1, argb: [255, 0, 0, 0])],
        toolTip: ToolTip(title: "Network", text: "No network activity"))

    let sink = MessageSink()
    private(set) var item: ItemObject!
    private(set) var menu: MenuObject!
    var lastRevision: UInt32 = 1

    init() {
        item = ItemObject(id: "netactivity", category: "SystemServices", content: Self.idle, send: sink.send,
                          onActivate: { _, _ in })
        menu = MenuObject(rows: Self.firstRows, send: sink.send,
                          onEvent: { [unowned self] id, _ in
                              fuzzCheck(menu.contains(id), "an event for item \(id), which the menu does not have")
                          },
                          onOpening: {})
    }

    func play(_ input: inout FuzzedBytes) {
        while !input.isAtEnd {
            let op = input.byte()
            switch op & 3 {
            case 0, 1:
                guard let length = WireMessage.length(at: input.remaining) else { return }
                guard let message = WireMessage.message(from: input.take(length)) else { continue }
                if op & 0x80 != 0 { WireMessage.setPath(message, StatusNotifierItem.objectPath) }
                if op & 0x40 != 0 { WireMessage.setPath(message, MenuObject.path) }
                record(CallOracle.deliver(message, from: ":1.7", to: [item.object, menu.object], sink: sink))
            case 2:
                sink.clear()
                menu.update(rows(from: &input), announcing: true)
                record(sink.sent)
            default:
                sink.clear()
                _ = item.update(content(from: &input), announcing: true)
                record(sink.sent)
            }
        }
        checkLayout()
    }

    /// Rows as the tray makes them: distinct ids, none the root's.
    private func rows(from input: inout FuzzedBytes) -> [MenuItem] {
        var rows: [MenuItem] = []
        for _ in 0..<(input.byte() % 8) {
            let id = Int32(input.byte()) + 1
            guard !rows.contains(where: { $0.id == id }) else { continue }
            switch input.byte() % 4 {
            case 0: rows.append(.separator(id: id))
            case 1: rows.append(MenuItem(id: id, label: input.string(), isEnabled: false, iconName: input.string()))
            default: rows.append(MenuItem(id: id, label: input.string(), isEnabled: input.bool()))
            }
        }
        return rows
    }

    private func content(from input: inout FuzzedBytes) -> ItemContent {
        let status = input.pick([ItemStatus.active, .passive, .needsAttention])
        let title = input.string()
        let iconName = input.string()
        let side = Int32(input.byte() % 3)
        let pixmaps = side == 0 ? [] : [IconPixmap(width: side, height: side, argb: Array(input.take(Int(side * side * 4))))]
        return ItemContent(title: title, status: status, iconName: iconName, iconPixmaps: pixmaps,
                           toolTip: ToolTip(title: input.string(), text: input.string()))
    }

    private func record(_ sent: [Message]) {
        fuzzCheck(menu.revision >= lastRevision, "the menu's revision went back from \(lastRevision) to \(menu.revision)")
        lastRevision = menu.revision
        for signal in sent where signal.isSignal(interface: MenuObject.interface, member: "LayoutUpdated") {
            var arguments = signal.arguments()
            fuzzCheck((try? arguments.read(UInt32.self)) == menu.revision, "LayoutUpdated without the current revision")
        }
    }

    /// `GetLayout` of the whole menu gives the rows shown, at the current revision.
    private func checkLayout() {
        let call = Message.methodCall(destination: nil, path: MenuObject.path, interface: MenuObject.interface,
                                      member: "GetLayout")
        call.appendArguments {
            $0.append(Int32(0))
            $0.append(Int32(-1))
            $0.append([String]())
        }
        call.serial = 7
        let sent = CallOracle.deliver(call, from: ":1.8", to: [item.object, menu.object], sink: sink)
        var reply = sent.last!.arguments()
        fuzzCheck((try? reply.read(UInt32.self)) == menu.revision, "GetLayout's revision")
        let children = try? reply.readStruct("(ia{sv}av)") { (node: inout MessageReader) throws(DBusError) in
            _ = try node.read(Int32.self)
            _ = try node.read([String: ReceivedVariant].self)
            return try node.read([ReceivedVariant].self).count
        }
        fuzzCheck(children == menu.rows.count, "GetLayout gives \(children ?? -1) rows of \(menu.rows.count)")
    }
}
#endif
