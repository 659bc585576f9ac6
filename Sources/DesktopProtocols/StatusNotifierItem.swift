public import DBusKit
public import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A tray icon on the session bus, in the StatusNotifierItem protocol: an object at `/StatusNotifierItem` that
/// hosts (panels) read, under a well-known name that a StatusNotifierWatcher is told of.
///
/// The item is in the tray while it is published: it owns `org.kde.StatusNotifierItem-PID-N` and registers that
/// name with the watcher, again whenever a watcher (re)starts or a host joins it. Withdrawing it releases the
/// name, which every host takes as the item leaving. Without a watcher it waits quietly for one. It runs on its
/// connection's event loop.
public final class StatusNotifierItem {
    public static let objectPath: ObjectPath = "/StatusNotifierItem"
    public static let interface: InterfaceName = "org.kde.StatusNotifierItem"
    public static let watcherName: BusName = "org.kde.StatusNotifierWatcher"
    static let watcherPath: ObjectPath = "/StatusNotifierWatcher"
    static let watcherInterface: InterfaceName = "org.kde.StatusNotifierWatcher"

    /// The name the item owns while it is published.
    public let busName: BusName
    /// A name for the item that stays the same across runs (`Id`).
    public var id: String { item.id }
    /// What sort of item it is (`Category`): ApplicationStatus, Communications, SystemServices or Hardware.
    public var category: String { item.category }
    public var content: ItemContent { item.content }
    public private(set) var isPublished = false

    private let connection: Connection
    private let logger: Logger
    /// The object at `objectPath`.
    private let item: ItemObject

    /// Exports the item on `connection`; it is not in any tray until `publish()`.
    ///
    /// - Parameter instance: tells apart the items of one process, for the name's `-N`.
    public init(
        connection: Connection, id: String, category: String, content: ItemContent, instance: Int = 1,
        logger: Logger, onActivate: @escaping (_ x: Int32, _ y: Int32) -> Void = { _, _ in }
    ) throws(DBusError) {
        self.connection = connection
        self.logger = logger
        busName = try BusName("org.kde.StatusNotifierItem-\(getpid())-\(instance)")
        // The connection's router holds the item's served object, whose `send` must not hold the connection.
        item = ItemObject(id: id, category: category, content: content,
                          send: { [unowned connection] message in connection.send(message) }, onActivate: onActivate)
        try connection.register(item.object)
        try connection.followOwner(of: Self.watcherName) { [unowned self] newOwner in
            // A panel that restarts brings a new watcher, which knows of no items.
            if !newOwner.isEmpty, isPublished { registerWithWatcher() }
        }
        // A watcher may take its name before it serves its object, and so refuse the first registration; its host
        // registers once it does.
        try connection.subscribe(to: MatchRule(
            sender: Self.watcherName, path: Self.watcherPath, interface: Self.watcherInterface,
            member: "StatusNotifierHostRegistered")
        ) { [unowned self] _ in
            if isPublished { registerWithWatcher() }
        }
    }

    /// Puts the item in the tray: takes its name and registers it with the watcher, if there is one.
    public func publish() throws(DBusError) {
        guard !isPublished else { return }
        let result = try connection.requestName(busName, flags: .doNotQueue)
        guard result == .primaryOwner || result == .alreadyOwner else {
            throw DBusError(.failed, "another connection owns \(busName)")
        }
        isPublished = true
        registerWithWatcher()
    }

    /// Takes the item out of every tray by releasing its name; the object stays, to be published again.
    public func withdraw() throws(DBusError) {
        guard isPublished else { return }
        isPublished = false
        try connection.releaseName(busName)
    }

    /// Shows `newContent`, announcing what changed with `NewTitle`, `NewIcon`, `NewAttentionIcon`, `NewToolTip`
    /// and `NewStatus`.
    public func update(_ newContent: ItemContent) {
        item.update(newContent)
    }

    private func registerWithWatcher() {
        let call = Message.methodCall(destination: Self.watcherName, path: Self.watcherPath,
                                      interface: Self.watcherInterface,
                                      member: "RegisterStatusNotifierItem")
        call.append(busName.rawValue)
        call.autoStart = false
        // Not a blocking call: a watcher may read the item's properties before it answers.
        connection.send(call) { [logger, busName] result in
            switch result {
            case .success:
                logger.info("registered \(busName) with the StatusNotifierWatcher")
            case .failure(let error) where error.name == .serviceUnknown || error.name == .nameHasNoOwner:
                logger.info("no StatusNotifierWatcher on the bus; waiting for a panel to start one")
            case .failure(let error) where error.name == .unknownObject || error.name == .unknownMethod:
                logger.info("the StatusNotifierWatcher is not serving yet; waiting for its host")
            case .failure(let error):
                logger.warning("the StatusNotifierWatcher refused \(busName): \(error)")
            }
        }
    }
}
