import DBusKit
import Foundation
import ServiceHarness

/// `netactivity-tray` running on the private bus, and what a host reads of its item.
final class TrayProcess {
    static let watcherName: BusName = "org.kde.StatusNotifierWatcher"
    static let itemInterface: InterfaceName = "org.kde.StatusNotifierItem"
    static let itemPath: ObjectPath = "/StatusNotifierItem"

    let process: BackgroundProcess
    /// The well-known name the item owns while it is in the tray.
    var itemName: String { item.itemName }
    private let item: ItemProbe

    init(_ bus: PrivateBus, arguments: [String] = [], environment: [String: String] = [:]) throws {
        process = try BackgroundProcess(Paths.tray, arguments, bus: bus, environment: environment)
        item = try ItemProbe(bus, itemName: "org.kde.StatusNotifierItem-\(process.process.processIdentifier)-1")
    }

    /// A watcher played by the test that accepts every registration and hears the items' signals and the bus's
    /// `NameOwnerChanged`.
    static func watcher(_ bus: PrivateBus) throws -> FakePeer {
        try FakePeer(bus, owning: watcherName,
                     signalsOf: [MatchRule(interface: itemInterface),
                                 MatchRule(sender: Connection.busDriverName, member: "NameOwnerChanged")],
                     answers: ["RegisterStatusNotifierItem": { $0.makeReturn() }])
    }

    func call(_ member: MemberName, interface: InterfaceName, _ arguments: (inout MessageWriter) -> Void = { _ in })
        throws(DBusError) -> MessageReader {
        try item.call(member, interface: interface, arguments)
    }

    /// What `Introspect` of the object at `path` returns, asked of the item's connection.
    func introspect(_ path: ObjectPath) throws -> String {
        var reply = try item.call(StandardInterface.introspect.name, interface: StandardInterface.introspectable,
                                  at: path)
        return try reply.read(String.self)
    }

    func properties() throws -> [String: ReceivedVariant] { try item.properties() }
    func property(_ name: String) throws -> ReceivedVariant { try item.property(name) }
    var isInTray: Bool { get throws { try item.isInTray } }
}

/// What a host reads of a tray item, from a connection of its own.
final class ItemProbe {
    let itemName: String
    private let probe: Connection

    init(_ bus: PrivateBus, itemName: String) throws {
        self.itemName = itemName
        probe = try Connection(bus: .address(bus.address))
    }

    func call(_ member: MemberName, interface: InterfaceName, at path: ObjectPath = TrayProcess.itemPath,
              _ arguments: (inout MessageWriter) -> Void = { _ in }) throws(DBusError) -> MessageReader {
        try probe.call(destination: try BusName(itemName), path: path, interface: interface,
                       member: member, timeout: .seconds(10), arguments: arguments)
    }

    /// Every property, through `GetAll`.
    func properties() throws -> [String: ReceivedVariant] {
        var reply = try call(StandardInterface.getAll.name, interface: "org.freedesktop.DBus.Properties") {
            $0.append(TrayProcess.itemInterface.rawValue)
        }
        return try reply.read([String: ReceivedVariant].self)
    }

    /// One property, through `Get`.
    func property(_ name: String) throws -> ReceivedVariant {
        var reply = try call(StandardInterface.get.name, interface: "org.freedesktop.DBus.Properties") {
            $0.append(TrayProcess.itemInterface.rawValue)
            $0.append(name)
        }
        return try reply.read(ReceivedVariant.self)
    }

    /// Whether the item owns its name now.
    var isInTray: Bool {
        get throws {
            var reply = try probe.call(destination: Connection.busDriverName, path: Connection.busDriverPath,
                                       interface: Connection.busDriverInterface, member: "NameHasOwner") {
                $0.append(itemName)
            }
            return try reply.read(Bool.self)
        }
    }
}

/// An `IconPixmap` as a host reads it.
struct ReceivedPixmap: DBusDecodable {
    static var dbusSignature: String { "(iiay)" }
    let width: Int32, height: Int32, argb: [UInt8]

    init(from reader: inout MessageReader) throws(DBusError) {
        self = try reader.readStruct(Self.dbusSignature) { (fields: inout MessageReader) throws(DBusError) in
            ReceivedPixmap(width: try fields.read(), height: try fields.read(), argb: try fields.read())
        }
    }

    private init(width: Int32, height: Int32, argb: [UInt8]) {
        self.width = width
        self.height = height
        self.argb = argb
    }

    /// Whether some pixel is opaque and of this colour.
    func hasOpaquePixel(red: UInt8, green: UInt8, blue: UInt8) -> Bool {
        stride(from: 0, to: argb.count, by: 4).contains { argb[$0] == 255 && argb[$0 + 1] == red
            && argb[$0 + 2] == green && argb[$0 + 3] == blue }
    }
}

/// A `ToolTip` as a host reads it.
struct ReceivedToolTip: DBusDecodable {
    static var dbusSignature: String { "(sa(iiay)ss)" }
    let iconName: String, pixmaps: [ReceivedPixmap], title: String, text: String

    init(from reader: inout MessageReader) throws(DBusError) {
        self = try reader.readStruct(Self.dbusSignature) { (fields: inout MessageReader) throws(DBusError) in
            ReceivedToolTip(iconName: try fields.read(), pixmaps: try fields.read(), title: try fields.read(),
                            text: try fields.read())
        }
    }

    private init(iconName: String, pixmaps: [ReceivedPixmap], title: String, text: String) {
        self.iconName = iconName
        self.pixmaps = pixmaps
        self.title = title
        self.text = text
    }
}

/// What most tray tests start from: a private bus with the real service, a watcher played by the test, the tray
/// with `trayArguments`, and a client to begin activities with.
struct TrayScene {
    let bus: PrivateBus
    let watcher: FakePeer
    let service: DaemonProcess
    let tray: TrayProcess
    let client: RawClient

    init(_ trayArguments: String...) throws {
        bus = try PrivateBus()
        watcher = try TrayProcess.watcher(bus)
        service = try DaemonProcess(bus: bus)
        tray = try TrayProcess(bus, arguments: trayArguments)
        client = try RawClient(bus)
    }
}
