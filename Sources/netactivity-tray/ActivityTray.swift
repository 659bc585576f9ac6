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
/// and offers a menu of them, with how far each is and a row to stop each that can be stopped. Once joined, it
/// stays at least `TrayPresence.minimumStay`, and until hosts have read the last change it announced
/// (`StatusNotifierItem.settlesAt`). Progress alone redraws it at most every `progressPacing`.
final class ActivityTray {
    private let idleMode: IdleMode
    /// Activities that lasted at least this long are announced with a notification when they end; nil: none are.
    private let notifyAfter: Duration?
    /// Serves the item and its menu, follows the service, and calls it.
    private let connection: Connection
    private let logger: Logger
    /// Where its timers, and the ages it shows, read the time.
    private let clock: any TimeSource
    private var item: StatusNotifierItem!
    private let notifier: DesktopNotifier
    /// The activities as jobs in KDE Plasma's job tracker; nil when turned off.
    private var plasmaJobs: PlasmaJobViews?
    /// Each app's progress on its icon in docks and task bars; nil when turned off.
    private var dockProgress: DockProgress?
    /// Each activity's progress in a notification with a bar; nil unless asked for.
    private var progressBubbles: ProgressBubbles?
    /// The last few that finished, for the menu's "Recent".
    private var recent: RecentActivities!
    private var state = IndicatorState.serviceStopped
    private var presence = TrayPresence()
    /// Whether the project's GNOME Shell extension shows the indicator (`ServiceNames.shellIndicatorName` has an
    /// owner): the item then stays out of the tray.
    private var isStandingDown = false
    /// Whether this user may end every activity (`Reset`), asked of the bus once per run of the service.
    private var mayEndAll: Bool?
    /// Hosts draw the whole menu again at each `LayoutUpdated` and read the item again at each `NewToolTip`: with
    /// activities reporting progress many times a second, the tray shows progress at most this often.
    static let progressPacing: Duration = .milliseconds(500)
    /// When it last showed a state to hosts, and whether a later state waits for `progressPacing` to pass.
    private var lastRender: MonotonicTime?
    private var isRenderPending = false
    /// The menu's row numbers of each listed activity: its row, and the row under it that stops it. They stay the
    /// same while the activity lasts, so that a click on a menu drawn a moment ago stops the activity it showed.
    private var rowNumbers: [ActivityID: Int32] = [:]
    private var nextRowNumber = RowID.firstActivity.rawValue
    /// The pixmaps of each look, drawn once.
    private let pixmaps: [IndicatorLook: [IconPixmap]] = [.active: drawn(.active), .idle: drawn(.idle)]

    init(connection: Connection, idleMode: IdleMode, notifyAfter: Duration?,
         showsPlasmaJobs: Bool = true, showsDockProgress: Bool = false, dockStateFile: String? = nil,
         showsProgressNotifications: Bool = false,
         clock: any TimeSource = SystemClock(), logger: Logger) throws(DBusError) {
        self.idleMode = idleMode
        self.notifyAfter = notifyAfter
        self.connection = connection
        self.clock = clock
        self.logger = logger
        notifier = DesktopNotifier(connection: connection, logger: logger)
        let appearance = TrayAppearance(isVisible: false, activeCount: 0, activities: [], idleMode: idleMode)
        item = try StatusNotifierItem(
            connection: connection, id: "netactivity", category: "SystemServices", content: content(of: appearance),
            menu: [], clock: clock, logger: logger,
            onActivate: { [unowned self] _, _ in notifyActivities() },
            onMenuEvent: { [unowned self] id, event in menuEvent(id, event) },
            onMenuOpening: { [unowned self] in item.updateMenu(menuRows()) })
        recent = try RecentActivities(connection: connection, logger: logger) { [unowned self] in
            item.updateMenu(menuRows())
        }
        item.updateMenu(menuRows())
        try connection.followOwner(of: ServiceNames.shellIndicatorName) { [unowned self] owner in
            standDown(!owner.isEmpty)
        }
        isStandingDown = !((try? connection.nameOwner(of: ServiceNames.shellIndicatorName)) ?? "").isEmpty
        if isStandingDown { logger.info("GNOME Shell's netactivity extension shows the indicator; staying out of the tray") }
        if showsProgressNotifications {
            progressBubbles = try ProgressBubbles(connection: connection, logger: logger, clock: clock) {
                [unowned self] id in requestCancel(id)
            }
        }
        if showsDockProgress {
            dockProgress = try DockProgress(connection: connection, clock: clock, logger: logger,
                                            stateFile: dockStateFile)
        }
        if showsPlasmaJobs {
            plasmaJobs = try PlasmaJobViews(connection: connection, logger: logger) { [unowned self] id in
                requestCancel(id)
            }
        }
    }

    /// Shows `newState`: at once when more than progress changed, otherwise once `progressPacing` has passed
    /// since the last time.
    func show(_ newState: IndicatorState) {
        let visibility = newState.isVisible ? "visible" : "hidden"
        logger.debug("""
            the service \(newState.isServiceRunning ? "runs" : "is stopped"), \(visibility), \
            \(newState.activeCount) active, \(newState.activities.count) listed
            """)
        if !newState.isServiceRunning {
            mayEndAll = nil
            recent.serviceStopped()
        } else if !state.isServiceRunning {
            recent.read()
        }
        announceFinished(before: state, after: newState)
        dockProgress?.follow(newState.isServiceRunning ? newState.activities : [])
        _ = progressBubbles?.follow(newState.isServiceRunning ? newState.activities : [])
        let isProgressOnly = newState.differsInProgressOnly(from: state)
        state = newState
        if isProgressOnly, let lastRender, clock.monotonicNow() < lastRender + Self.progressPacing {
            isRenderPending = true
        } else {
            render()
        }
    }

    /// Leaves the tray once the minimum stay is over and hosts have read the last change, shows progress that
    /// waited, and fires the item's own timers. Returns how long the loop may sleep until the next; nil when
    /// nothing waits.
    func fireDueTimers() -> Duration? {
        let timers = [leaveIfDue(), renderIfDue(), item.fireDueTimers(), dockProgress?.sendDue(),
                      progressBubbles?.fireDueTimers()].compactMap { $0 }
        return timers.min()
    }

    private func renderIfDue() -> Duration? {
        guard isRenderPending, let lastRender else { return nil }
        let now = clock.monotonicNow()
        let due = lastRender + Self.progressPacing
        guard now >= due else { return now.duration(to: due) }
        render()
        return nil
    }

    private func leaveIfDue() -> Duration? {
        guard presence.isInTray, let leave = presence.earliestLeave(notBefore: item.settlesAt), !appearance.isInTray
        else { return nil }
        let now = clock.monotonicNow()
        guard now >= leave else { return now.duration(to: leave) }
        render()
        return nil
    }

    /// The tray stops (SIGTERM, SIGINT): docks forget what it showed.
    func stop() {
        dockProgress?.stop()
    }

    /// The extension came (true) or went (false): the item leaves the tray, or comes back to it as the state says.
    private func standDown(_ standsDown: Bool) {
        guard standsDown != isStandingDown else { return }
        isStandingDown = standsDown
        logger.info(standsDown ? "GNOME Shell's netactivity extension shows the indicator; leaving the tray"
                               : "GNOME Shell's netactivity extension is gone; showing the indicator again")
        render()
    }

    private var appearance: TrayAppearance {
        guard !isStandingDown else {
            return TrayAppearance(isVisible: false, activeCount: 0, activities: [], idleMode: .hide)
        }
        return TrayAppearance(isVisible: state.isVisible, activeCount: Int(state.activeCount),
                              activities: state.activities, idleMode: idleMode)
    }

    /// Joins or leaves the tray and shows the state. Joining, the content changes first, so that hosts read it
    /// current; leaving, the item leaves first and announces nothing (`StatusNotifierItem.update`).
    private func render() {
        lastRender = clock.monotonicNow()
        isRenderPending = false
        let wanted = appearance
        let inTray = presence.update(wantsInTray: wanted.isInTray, at: clock.monotonicNow(), notBefore: item.settlesAt)
        // In the tray only for its minimum stay, or while hosts read its last change: the idle look.
        let shown = inTray == wanted.isInTray ? wanted
            : TrayAppearance(isVisible: false, activeCount: 0, activities: [], idleMode: .show)
        do throws(DBusError) {
            if !inTray { try item.withdraw() }
            item.update(content(of: shown))
            item.updateMenu(menuRows())
            plasmaJobs?.show(state.isVisible ? state.activities : [])
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
        case header = 1, separator, showDetails, endAll, more, recentHeader, recentSeparator, clearRecent
        /// The activities that finished, one row each.
        case firstRecent = 50
        /// Activities are numbered from here, two rows each (`rowNumbers`).
        case firstActivity = 100
    }

    /// The menu's rows now, the activities' ages counted from now.
    private func menuRows() -> [MenuItem] {
        let activities = state.isVisible ? state.activities : []
        let menu = TrayMenu(activities: activities, recent: recent.entries, at: clock.now().wallClock,
                            mayEndAll: userMayEndAll())
        var separators = [RowID.separator, .recentSeparator]
        let listed = Set(activities.prefix(TrayMenu.listedActivities).map(\.id))
        rowNumbers = rowNumbers.filter { listed.contains($0.key) }
        func rowNumber(of id: ActivityID) -> Int32 {
            if let number = rowNumbers[id] { return number }
            defer { nextRowNumber = nextRowNumber >= Int32.max - 2 ? RowID.firstActivity.rawValue : nextRowNumber + 2 }
            rowNumbers[id] = nextRowNumber
            return nextRowNumber
        }
        return menu.rows.map { row in
            switch row {
            case .header(let text):
                return MenuItem(id: RowID.header.rawValue, label: MenuItem.literalLabel(text), isEnabled: false)
            case .activity(let id, let text, let icon):
                return MenuItem(id: rowNumber(of: id), label: MenuItem.literalLabel(text), isEnabled: false,
                                iconName: icon)
            case .stop(let id, let text):
                return MenuItem(id: rowNumber(of: id) + 1, label: MenuItem.literalLabel(text))
            case .stopping(let id, let text):
                return MenuItem(id: rowNumber(of: id) + 1, label: MenuItem.literalLabel(text), isEnabled: false)
            case .more(let text):
                return MenuItem(id: RowID.more.rawValue, label: MenuItem.literalLabel(text), isEnabled: false)
            case .separator:
                return .separator(id: separators.removeFirst().rawValue)
            case .recentHeader:
                return MenuItem(id: RowID.recentHeader.rawValue, label: TrayMenu.recentLabel, isEnabled: false)
            case .recent(let index, let text):
                return MenuItem(id: RowID.firstRecent.rawValue + Int32(index), label: MenuItem.literalLabel(text),
                                isEnabled: false)
            case .clearRecent:
                return MenuItem(id: RowID.clearRecent.rawValue, label: TrayMenu.clearRecentLabel)
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
        case .clearRecent: recent.clear()
        default:
            if let activity = rowNumbers.first(where: { $0.value + 1 == id })?.key { requestCancel(activity) }
        }
    }

    /// Asks the activity's owner to stop it, for the menu or Plasma's job tracker; the menu reads "Stopping…" once
    /// the service says it asked.
    /// A refusal is shown: the person clicked Stop, and a source (PackageKit) may refuse what a caller would not.
    private func requestCancel(_ id: ActivityID) {
        let title = state.activities.first { $0.id == id }?.title ?? "activity \(id)"
        callService(ServiceMembers.requestCancel.serviceCall(id.rawValue)) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                logger.notice("asked the owner of activity \(id) to stop it")
            case .failure(let error):
                logger.warning("could not ask for activity \(id) to stop: \(error)")
                notifier.show(DesktopNotification(
                    applicationName: "netactivity", iconName: IndicatorLook.active.iconName,
                    summary: "Could not stop \(title)", body: error.message.markupEscaped))
            }
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
        callService(ServiceMembers.reset.serviceCall()) { [logger] result in
            switch result {
            case .success(let ended):
                logger.notice("ended every activity (\(ended)) from the menu")
            case .failure(let error):
                logger.warning("could not end every activity: \(error)")
            }
        }
    }

    /// Calls the service from the loop, which goes on serving hosts meanwhile; never starts it.
    private func callService<Reply>(_ call: ServiceCall<Reply>, then: @escaping (Result<Reply, DBusError>) -> Void) {
        connection.send(call.withoutAutoStart(), onReply: then)
    }

    // MARK: Notifications

    /// A click: every activity's label, one per line.
    private func notifyActivities() {
        notifier.show(DesktopNotification(
            applicationName: "netactivity", iconName: IndicatorLook.active.iconName,
            summary: ActivitySummary(count: state.activities.count, labels: []).text,
            body: ActivityStatus.summaryLines(state.activities).map(\.markupEscaped).joined(separator: "\n")))
    }

    /// With `notifyAfter`: names the activities of at least that age that `before` had and `after` has not.
    private func announceFinished(before: IndicatorState, after: IndicatorState) {
        // A service that stops has not finished its activities.
        guard let notifyAfter, before.isServiceRunning, after.isServiceRunning else { return }
        let now = clock.now().wallClock
        let remaining = Set(after.activities.map(\.id))
        let finished = before.activities.filter { !remaining.contains($0.id) && $0.age(at: now) >= notifyAfter }
        guard !finished.isEmpty else { return }
        let text = FinishedActivities(finished, endedAt: now)
        notifier.show(DesktopNotification(applicationName: "netactivity", iconName: IndicatorLook.active.iconName,
                                          summary: text.summary, body: text.body.markupEscaped))
    }
}

private func drawn(_ look: IndicatorLook) -> [IconPixmap] {
    IndicatorLook.pixmapSizes.map { size in
        IconPixmap(width: Int32(size), height: Int32(size), argb: look.pixels(size: size))
    }
}

extension IndicatorState {
    /// Whether only the activities' progress (percent, amounts, rate) tells the two states apart.
    fileprivate func differsInProgressOnly(from other: IndicatorState) -> Bool {
        func withoutProgress(_ state: IndicatorState) -> IndicatorState {
            var state = state
            for index in state.activities.indices {
                state.activities[index].percent = nil
                state.activities[index].done = nil
                state.activities[index].total = nil
                state.activities[index].rate = nil
            }
            return state
        }
        return self != other && withoutProgress(self) == withoutProgress(other)
    }
}
