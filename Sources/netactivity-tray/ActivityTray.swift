import DBusKit
import DesktopIndicator
import ProgramSupport
import NetworkActivityClient
import NetworkActivityInterface

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Shows the indicator's state as a tray icon: joins the tray when the indicator shows and leaves it when it
/// hides (or stays, with the idle look, per `idleMode`), answers a click with a notification of the activities,
/// and offers a menu of them. Once joined, it stays at least `TrayPresence.minimumStay`, and until hosts have read
/// the last change it announced (`StatusNotifierItem.settlesAt`).
final class ActivityTray {
    private let idleMode: IdleMode
    /// Activities that lasted at least this long are announced with a notification when they end; nil: none are.
    private let notifyAfter: Duration?
    private let connection: Connection
    /// Ends every activity for the menu's "End all".
    private let client: NetworkActivityClient
    private let logger: Logger
    /// Where its timers, and the ages it shows, read the time.
    private let clock: any TimeSource
    private var item: StatusNotifierItem!
    private let notifier: DesktopNotifier
    private var state = IndicatorState.serviceStopped
    private var presence = TrayPresence()
    /// Whether this user may end every activity (`Reset`), asked of the bus once per run of the service.
    private var mayEndAll: Bool?
    /// The pixmaps of each look, drawn once.
    private let pixmaps: [IndicatorLook: [IconPixmap]] = [.active: drawn(.active), .idle: drawn(.idle)]

    init(connection: Connection, client: NetworkActivityClient, idleMode: IdleMode, notifyAfter: Duration?,
         clock: any TimeSource = SystemClock(), logger: Logger) throws(DBusError) {
        self.idleMode = idleMode
        self.notifyAfter = notifyAfter
        self.connection = connection
        self.client = client
        self.clock = clock
        self.logger = logger
        notifier = DesktopNotifier(connection: connection, logger: logger)
        let appearance = TrayAppearance(isVisible: false, activeCount: 0, labels: [], idleMode: idleMode)
        item = try StatusNotifierItem(
            connection: connection, id: "netactivity", category: "SystemServices", content: content(of: appearance),
            menu: [], clock: clock, logger: logger,
            onActivate: { [unowned self] _, _ in notifyActivities() },
            onMenuEvent: { [unowned self] id, event in menuEvent(id, event) },
            onMenuOpening: { [unowned self] in item.updateMenu(menuRows()) })
        item.updateMenu(menuRows())
    }

    /// Shows `newState`.
    func show(_ newState: IndicatorState) {
        if !newState.isServiceRunning { mayEndAll = nil }
        announceFinished(before: state, after: newState)
        state = newState
        render()
    }

    /// Leaves the tray once the minimum stay is over and hosts have read the last change, if the indicator still
    /// wants it out, and fires the item's own timers. Returns how long the loop may sleep until the next; nil when
    /// nothing waits.
    func fireDueTimers() -> Duration? {
        let leaving = leaveIfDue()
        guard let itemTimer = item.fireDueTimers() else { return leaving }
        return min(leaving ?? itemTimer, itemTimer)
    }

    private func leaveIfDue() -> Duration? {
        guard presence.isInTray, let leave = presence.earliestLeave(notBefore: item.settlesAt), !appearance.isInTray
        else { return nil }
        let now = clock.monotonicNow()
        guard now >= leave else { return now.duration(to: leave) }
        render()
        return nil
    }

    private var appearance: TrayAppearance {
        TrayAppearance(isVisible: state.isVisible, activeCount: Int(state.activeCount), labels: state.labels,
                       idleMode: idleMode)
    }

    /// Joins or leaves the tray and shows the state. Joining, the content changes first, so that hosts read it
    /// current; leaving, the item leaves first and announces nothing (`StatusNotifierItem.update`).
    private func render() {
        let wanted = appearance
        let inTray = presence.update(wantsInTray: wanted.isInTray, at: clock.monotonicNow(), notBefore: item.settlesAt)
        // In the tray only for its minimum stay, or while hosts read its last change: the idle look.
        let shown = inTray == wanted.isInTray ? wanted
            : TrayAppearance(isVisible: false, activeCount: 0, labels: [], idleMode: .show)
        do throws(DBusError) {
            if !inTray { try item.withdraw() }
            item.update(content(of: shown))
            item.updateMenu(menuRows())
            if inTray { try item.publish() }
        } catch {
            logger.error("could not \(inTray ? "join" : "leave") the tray: \(error)")
        }
    }

    private func content(of appearance: TrayAppearance) -> ItemContent {
        let toolTip = ToolTip(iconName: appearance.look.iconName, title: TrayAppearance.title,
                              text: appearance.summary.markupEscaped)
        return ItemContent(title: TrayAppearance.title, status: appearance.isActive ? .active : .passive,
                           iconName: appearance.look.iconName, iconPixmaps: pixmaps[appearance.look] ?? [],
                           toolTip: toolTip)
    }

    // MARK: The menu

    private enum RowID: Int32 {
        case header = 1, separator, showDetails, endAll
        /// Activities are numbered from here, in order.
        case firstActivity = 100
    }

    /// The menu's rows now, the activities' ages counted from now.
    private func menuRows() -> [MenuItem] {
        let now = clock.now().wallClock
        let activities = state.isVisible ? state.activities.map { ($0.label, $0.age(at: now)) } : []
        let menu = TrayMenu(activities: activities, mayEndAll: userMayEndAll())
        var nextActivity = RowID.firstActivity.rawValue
        return menu.rows.map { row in
            switch row {
            case .header(let text):
                return MenuItem(id: RowID.header.rawValue, label: MenuItem.literalLabel(text), isEnabled: false)
            case .activity(let text):
                defer { nextActivity += 1 }
                return MenuItem(id: nextActivity, label: MenuItem.literalLabel(text), isEnabled: false)
            case .separator:
                return .separator(id: RowID.separator.rawValue)
            case .showDetails:
                return MenuItem(id: RowID.showDetails.rawValue, label: TrayMenu.showDetailsLabel)
            case .endAll:
                return MenuItem(id: RowID.endAll.rawValue, label: TrayMenu.endAllLabel)
            }
        }
    }

    private func menuEvent(_ id: Int32, _ event: String) {
        logger.debug("menu event \(event) on item \(id)")
        guard event == "clicked" else { return }
        switch RowID(rawValue: id) {
        case .showDetails: notifyActivities()
        case .endAll: endAll()
        default: break
        }
    }

    /// The service answers `Reset` from root and from its own user only (on the system bus, root only).
    private func userMayEndAll() -> Bool {
        guard state.isServiceRunning else { return false }
        if let mayEndAll { return mayEndAll }
        let user = getuid()
        let allowed = user == 0 || (try? connection.unixUser(of: ServiceNames.busName)) == user
        mayEndAll = allowed
        return allowed
    }

    private func endAll() {
        Task { [client, logger] in
            do throws(NetworkActivityError) {
                let ended = try await client.reset()
                logger.notice("ended every activity (\(ended)) from the menu")
            } catch {
                logger.warning("could not end every activity: \(error)")
            }
        }
    }

    // MARK: Notifications

    /// A click: every activity's label, one per line.
    private func notifyActivities() {
        notifier.show(DesktopNotification(
            applicationName: "netactivity", iconName: IndicatorLook.active.iconName,
            summary: ActivitySummary(count: state.labels.count, labels: []).text,
            body: ActivitySummary.markupList(state.labels)))
    }

    /// With `notifyAfter`: names the activities of at least that age that `before` had and `after` has not.
    private func announceFinished(before: IndicatorState, after: IndicatorState) {
        // A service that stops has not finished its activities.
        guard let notifyAfter, before.isServiceRunning, after.isServiceRunning else { return }
        let now = clock.now().wallClock
        let remaining = Set(after.activities.map(\.id))
        let finished = before.activities.filter { !remaining.contains($0.id) && $0.age(at: now) >= notifyAfter }
        guard !finished.isEmpty else { return }
        let text = FinishedActivities(finished.map { ($0.label, $0.age(at: now)) })
        notifier.show(DesktopNotification(applicationName: "netactivity", iconName: IndicatorLook.active.iconName,
                                          summary: text.summary, body: text.body.markupEscaped))
    }
}

private func drawn(_ look: IndicatorLook) -> [IconPixmap] {
    IndicatorLook.pixmapSizes.map { size in
        IconPixmap(width: Int32(size), height: Int32(size), argb: look.pixels(size: size))
    }
}
