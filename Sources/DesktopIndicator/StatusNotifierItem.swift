// SPDX-License-Identifier: Apache-2.0
public import DBusKit
import NetworkActivityInterface
public import ProgramSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A tray icon on the session bus, in the StatusNotifierItem protocol: an object at `/StatusNotifierItem` that
/// hosts (panels) read, with its menu at `/MenuBar`, under a well-known name that a StatusNotifierWatcher is told of.
///
/// The item is in the tray while it is published: it owns `org.kde.StatusNotifierItem-PID-N` and registers that
/// name with the watcher, again whenever a watcher (re)starts or a host joins it. Withdrawing it releases the
/// name, which every host takes as the item leaving. Hosts hear of a change of content (the `New*` signals) only
/// while it is published: a host answers those signals by reading the item, and one (xfce4-panel's systray) reads
/// into freed memory when the item leaves before the answer comes. Without a watcher it waits quietly for one.
/// GNOME's AppIndicator extension (version 46, GNOME 43) has a race of its own at an item's registration, after
/// which it either drops the item or keeps it without showing it. So a watcher that drops the item while it is
/// published is told of it again, a few times at most, and a while after each registration the item says its `Id`
/// and `Menu` again (`fireDueTimers`). It runs on its connection's event loop.
public final class StatusNotifierItem {
    public static let objectPath: ObjectPath = "/StatusNotifierItem"
    public static let interface: InterfaceName = "org.kde.StatusNotifierItem"

    /// The name the item owns while it is published.
    public let busName: BusName
    /// A name for the item that stays the same across runs (`Id`).
    public var id: String { item.id }
    /// What sort of item it is (`Category`): ApplicationStatus, Communications, SystemServices or Hardware.
    public var category: String { item.category }
    public var content: ItemContent { item.content }
    /// The rows of its menu.
    public var menuRows: [MenuItem] { menu.rows }
    public private(set) var isPublished = false

    private let connection: Connection
    private let logger: Logger
    /// Where the item's timers read the time.
    private let clock: any TimeSource
    /// The object at `objectPath`.
    private let item: ItemObject
    /// The object at `MenuObject.path`.
    private let menu: MenuObject
    /// Whether the item is waiting for a watcher, which it has said once and says no more until one comes.
    private var isWaitingForWatcher = false
    /// Counts publications, so that the watcher's answer to an earlier one's registration is told apart.
    private var publication = 0
    /// Whether the watcher has answered this publication's registration. A watcher answers in order, so it
    /// announces the drop of an earlier publication (the name's release) before this answer: a drop heard before
    /// it is not about this publication.
    private var isRegistered = false
    /// How many times the item registered again, since it was published, after a watcher dropped it.
    private var registrationsAfterDrop = 0
    /// Past this many, a watcher that keeps dropping the item is taken to mean it.
    static let maximumRegistrationsAfterDrop = 5
    /// How long after a registration the item says its `Id` and `Menu` again. The extension reads them a second
    /// after a registration, into a cache that its race may have emptied just before, and that read fails on an
    /// empty cache ("Argument two may not be null"), after which it drops the item or keeps it unshown: said at
    /// half a second, they fill the cache again before that read; then after the race, and once more in case the
    /// shell was busy.
    static let identityRepeats: [Duration] = [.milliseconds(500), .milliseconds(1500), .seconds(4)]
    /// When it says them next.
    private var identityDue: [MonotonicTime] = []
    /// How long hosts are given to read a change the item announced before it leaves the tray (`settlesAt`).
    /// gtk-sni-tray reads the icon on `NewIcon` in a thread of its own, and when the item left meanwhile, it could
    /// draw the icon after it had removed the item, where no later removal would find it: seen under load when the
    /// item left within milliseconds of taking the idle look.
    public static let settling: Duration = .milliseconds(500)
    /// When it last sent hosts a signal about its content, menu or identity.
    private var lastAnnouncement: MonotonicTime?

    /// Exports the item and its menu on `connection`; it is not in any tray until `publish()`.
    ///
    /// - Parameters:
    ///   - instance: tells apart the items of one process, for the name's `-N`.
    ///   - clock: where its timers (`fireDueTimers`, `settlesAt`) read the time.
    ///   - onActivate: a click on the icon, with the screen position the host gives.
    ///   - onMenuEvent: an event on a row of the menu, such as "clicked", or on the root (id 0), "opened" and
    ///     "closed".
    ///   - onMenuOpening: a host is about to show the menu: the place to bring its rows up to date
    ///     (`updateMenu`).
    public init(
        connection: Connection, id: String, category: String, content: ItemContent, menu rows: [MenuItem],
        instance: Int = 1, clock: any TimeSource = SystemClock(), logger: Logger, onActivate: @escaping (_ x: Int32, _ y: Int32) -> Void = { _, _ in },
        onMenuEvent: @escaping (_ id: Int32, _ event: String) -> Void = { _, _ in },
        onMenuOpening: @escaping () -> Void = {}
    ) throws(DBusError) {
        self.connection = connection
        self.clock = clock
        self.logger = logger
        busName = try BusName("org.kde.StatusNotifierItem-\(getpid())-\(instance)")
        // The connection's router holds the served objects, whose `send` must not hold the connection.
        let send: (Message) -> Void = { [unowned connection] message in connection.send(message) }
        item = ItemObject(id: id, category: category, content: content, send: send, onActivate: onActivate)
        menu = MenuObject(rows: rows, send: send, onEvent: onMenuEvent, onOpening: onMenuOpening)
        try connection.register(item.object)
        try connection.register(menu.object)
        try connection.followOwner(of: StatusNotifierWatcherInterface.watcher.busName) { [unowned self] newOwner in
            guard !newOwner.isEmpty else { return }
            // A panel that restarts brings a new watcher, which knows of no items.
            if isPublished {
                registerWithWatcher()
            } else {
                stopWaitingForWatcher()
            }
        }
        // A watcher may take its name before it serves its object, and so refuse the first registration; its host
        // registers once it does.
        try connection.subscribe(to: StatusNotifierWatcherInterface.hostRegistered.rule(
            sender: StatusNotifierWatcherInterface.watcher.busName, path: StatusNotifierWatcherInterface.watcher.path)
        ) { [unowned self] _ in
            if isPublished { registerWithWatcher() }
        }
        var unregistered = StatusNotifierWatcherInterface.itemUnregistered.rule(
            sender: StatusNotifierWatcherInterface.watcher.busName, path: StatusNotifierWatcherInterface.watcher.path)
        unregistered.arguments = [0: busName.rawValue]
        try connection.subscribe(to: unregistered) { [unowned self] _ in
            registerAfterDrop()
        }
    }

    /// Puts the item in the tray: takes its name and registers it with the watcher, if there is one. Hosts read
    /// the content as it is now.
    public func publish() throws(DBusError) {
        guard !isPublished else { return }
        let result = try connection.requestName(busName, flags: .doNotQueue)
        guard result == .primaryOwner || result == .alreadyOwner else {
            throw DBusError(.failed, "another connection owns \(busName)")
        }
        isPublished = true
        publication += 1
        isRegistered = false
        registrationsAfterDrop = 0
        registerWithWatcher()
    }

    /// Takes the item out of every tray by releasing its name, and nothing else; the objects stay, to be
    /// published again.
    public func withdraw() throws(DBusError) {
        guard isPublished else { return }
        isPublished = false
        isRegistered = false
        identityDue = []
        try connection.releaseName(busName)
        logger.info("released \(busName): out of the tray")
    }

    /// Shows `newContent`. While the item is published, hosts hear what changed (`NewTitle`, `NewIcon`,
    /// `NewAttentionIcon`, `NewToolTip`, `NewStatus`); otherwise they read it when it is published. An item that is
    /// about to leave the tray leaves first (`withdraw`) and changes its content after.
    public func update(_ newContent: ItemContent) {
        if item.update(newContent, announcing: isPublished) { lastAnnouncement = clock.monotonicNow() }
    }

    /// Shows `rows` in the menu; while the item is published, a host that has it open draws it again
    /// (`LayoutUpdated`).
    public func updateMenu(_ rows: [MenuItem]) {
        if menu.update(rows, announcing: isPublished) { lastAnnouncement = clock.monotonicNow() }
    }

    /// When hosts will have read what the item last announced, `settling` after it; nil when that is past. An item
    /// that leaves the tray should not leave before.
    public var settlesAt: MonotonicTime? {
        guard let settled = lastAnnouncement.map({ $0 + Self.settling }), settled > clock.monotonicNow() else { return nil }
        return settled
    }

    /// Says `Id` and `Menu` again if it is time; returns how long the loop may sleep until the next time, nil when
    /// nothing waits. Called at the end of every turn of the connection's event loop.
    public func fireDueTimers() -> Duration? {
        guard isPublished, let next = identityDue.first else { return nil }
        let now = clock.monotonicNow()
        guard now >= next else { return now.duration(to: next) }
        identityDue.removeFirst()
        item.announceIdentity()
        lastAnnouncement = now
        return identityDue.first.map { max(.zero, now.duration(to: $0)) }
    }

    private func registerWithWatcher() {
        let call = StatusNotifierWatcherInterface.registerItem.call(
            busName.rawValue, on: StatusNotifierWatcherInterface.watcher)
        call.autoStart = false
        let registeredPublication = publication
        let watcher = (try? connection.nameOwner(of: StatusNotifierWatcherInterface.watcher.busName)) ?? ""
        // Not a blocking call: a watcher may read the item's properties before it answers.
        connection.send(call) { [weak self] result in
            guard let self, isPublished, publication == registeredPublication else { return }
            switch result {
            case .success:
                stopWaitingForWatcher()
                isRegistered = true
                let now = clock.monotonicNow()
                identityDue = Self.identityRepeats.map { now + $0 }
                logger.info("registered \(busName) with the StatusNotifierWatcher")
            case .failure(let error) where error.name == .serviceUnknown || error.name == .nameHasNoOwner
                || error.name == .unknownObject || error.name == .unknownMethod:
                // No watcher, or one that does not serve yet: its host registers once it does.
                if !isWaitingForWatcher {
                    isWaitingForWatcher = true
                    logger.info("no StatusNotifierWatcher serves on the bus; waiting for a panel to start one")
                }
            case .failure(let error) where error.name == .noReply
                && (try? connection.nameOwner(of: StatusNotifierWatcherInterface.watcher.busName)) ?? "" != watcher:
                // The watcher left (a panel that quit or restarted) before it answered: the next one is told.
                logger.info("the StatusNotifierWatcher left before it answered \(busName)'s registration")
            case .failure(let error):
                logger.warning("the StatusNotifierWatcher refused \(busName): \(error)")
            }
        }
    }

    /// A watcher said it no longer has the item. Unless the item left the tray itself, which watchers also announce
    /// this way (late, when it was published again at once: registering twice left gtk-sni-tray drawing the icon of
    /// an item gone from the bus), it registers again, up to `maximumRegistrationsAfterDrop` times.
    private func registerAfterDrop() {
        guard isPublished, isRegistered else { return }
        isRegistered = false
        guard registrationsAfterDrop < Self.maximumRegistrationsAfterDrop else {
            if registrationsAfterDrop == Self.maximumRegistrationsAfterDrop {
                registrationsAfterDrop += 1
                logger.warning("the StatusNotifierWatcher keeps dropping \(busName); not registering again")
            }
            return
        }
        registrationsAfterDrop += 1
        logger.info("the StatusNotifierWatcher dropped \(busName); registering again")
        registerWithWatcher()
    }

    /// Says once that the wait for a watcher is over, if the item was waiting.
    private func stopWaitingForWatcher() {
        guard isWaitingForWatcher else { return }
        isWaitingForWatcher = false
        logger.info("a StatusNotifierWatcher came onto the bus")
    }
}
