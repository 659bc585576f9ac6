// SPDX-License-Identifier: Apache-2.0
import DBusKit
import DesktopIndicator
import Localization
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
    /// Serves the item and its menu, follows the service, and calls it.
    private let connection: Connection
    private let logger: Logger
    /// Where its timers, and the ages it shows, read the time.
    private let clock: any TimeSource
    private var item: StatusNotifierItem!
    private let notices: TrayNotices
    /// The last few that finished, for the menu's "Recent".
    private var recent: RecentActivities!
    /// The day's data usage, for the menu's "Used today", and the warning on metered connections.
    private var usedToday: UsedToday!
    /// Where it shows the activities besides the icon, each as it was asked to: Recent, Plasma's jobs, docks and
    /// progress notifications.
    private var outputs: [any TrayOutput] = []
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
    private var renderPacing = ChangePacing(interval: progressPacing)
    /// The menu's dbusmenu items, and what a click on one asks for.
    private var menuItems = TrayMenuItems()

    init(connection: Connection, idleMode: IdleMode, notifyAfter: Duration?,
         showsPlasmaJobs: Bool = true, showsDockProgress: Bool = false, dockStateFile: String? = nil,
         showsProgressNotifications: Bool = false, meteredWarning: UInt64 = 0, warningsFile: String? = nil,
         planNoticesFile: String? = nil, clock: any TimeSource = SystemClock(), logger: Logger) throws(DBusError) {
        self.idleMode = idleMode
        self.connection = connection
        self.clock = clock
        self.logger = logger
        let notifier = DesktopNotifier(connection: connection, logger: logger)
        notices = TrayNotices(notifier: notifier, notifyAfter: notifyAfter)
        let appearance = TrayAppearance(isVisible: false, activeCount: 0, activities: [], idleMode: idleMode)
        item = try StatusNotifierItem(
            connection: connection, id: "netactivity", category: "SystemServices", content: appearance.itemContent,
            menu: [], clock: clock, logger: logger,
            onActivate: { [unowned self] _, _ in notices.showActivities(of: state) },
            onMenuEvent: { [unowned self] id, event in menuEvent(id, event) },
            onMenuOpening: { [unowned self] in
                item.updateMenu(menuRows())
                // The day's usage as of now: its rows follow when the answer comes.
                usedToday.read()
            })
        recent = try RecentActivities(connection: connection, logger: logger) { [unowned self] in
            item.updateMenu(menuRows())
        }
        usedToday = try UsedToday(connection: connection, notifier: notifier, meteredWarning: meteredWarning,
                                  warningsFile: warningsFile, clock: clock, logger: logger) { [unowned self] in
            item.updateMenu(menuRows())
        }
        item.updateMenu(menuRows())
        try connection.followOwner(of: ServiceNames.shellIndicatorName) { [unowned self] owner in
            standDown(!owner.isEmpty)
        }
        isStandingDown = !((try? connection.nameOwner(of: ServiceNames.shellIndicatorName)) ?? "").isEmpty
        if isStandingDown { logger.info("GNOME Shell's netactivity extension shows the indicator; staying out of the tray") }
        outputs.append(recent)
        outputs.append(usedToday)
        outputs.append(try DataPlanNotices(connection: connection, notifier: notifier, shownFile: planNoticesFile,
                                           logger: logger))
        if showsPlasmaJobs {
            outputs.append(try PlasmaJobViews(connection: connection, logger: logger) { [unowned self] id in
                requestCancel(id)
            })
        }
        if showsDockProgress {
            outputs.append(try DockProgress(connection: connection, clock: clock, logger: logger,
                                            stateFile: dockStateFile))
        }
        if showsProgressNotifications {
            outputs.append(try ProgressBubbles(notifier: notifier, logger: logger, clock: clock) {
                [unowned self] id in requestCancel(id)
            })
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
        if !newState.isServiceRunning { mayEndAll = nil }
        notices.showFinished(before: state, after: newState, at: clock.now().wallClock)
        let isProgressOnly = newState.differsInProgressOnly(from: state)
        state = newState
        if isProgressOnly {
            renderPacing.changed()
            if renderPacing.isDue(at: clock.monotonicNow()) { render() }
        } else {
            render()
        }
    }

    /// Leaves the tray once the minimum stay is over and hosts have read the last change, shows progress that
    /// waited, and fires the item's own timers. Returns how long the loop may sleep until the next; nil when
    /// nothing waits.
    func fireDueTimers() -> Duration? {
        let timers = [leaveIfDue(), renderIfDue(), item.fireDueTimers()] + outputs.map { $0.fireDueTimers() }
        return timers.compactMap { $0 }.min()
    }

    private func renderIfDue() -> Duration? {
        guard let due = renderPacing.nextDeadline else { return nil }
        let now = clock.monotonicNow()
        guard renderPacing.isDue(at: now) else { return now.duration(to: due) }
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
        for output in outputs { output.stop() }
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

    /// Joins or leaves the tray and shows the state, there and in the other outputs. Joining, the content changes first, so that hosts read it
    /// current; leaving, the item leaves first and announces nothing (`StatusNotifierItem.update`).
    private func render() {
        renderPacing.announced(at: clock.monotonicNow())
        let wanted = appearance
        let inTray = presence.update(wantsInTray: wanted.isInTray, at: clock.monotonicNow(), notBefore: item.settlesAt)
        // In the tray only for its minimum stay, or while hosts read its last change: the idle look.
        let shown = inTray == wanted.isInTray ? wanted
            : TrayAppearance(isVisible: false, activeCount: 0, activities: [], idleMode: .show)
        do throws(DBusError) {
            if !inTray { try item.withdraw() }
            item.update(shown.itemContent)
            item.updateMenu(menuRows())
            if inTray { try item.publish() }
        } catch {
            logger.error("could not \(inTray ? "join" : "leave") the tray: \(error)")
        }
        for output in outputs { output.follow(state) }
    }

    // MARK: The menu

    /// The menu's items now, the activities' ages counted from now.
    private func menuRows() -> [MenuItem] {
        menuItems.items(of: TrayMenu(activities: state.isVisible ? state.activities : [], recent: recent.entries,
                                     usedToday: usedToday.today, plans: usedToday.plans, at: clock.now().wallClock,
                                     mayEndAll: userMayEndAll(), pausingUser: getuid()))
    }

    private func menuEvent(_ id: Int32, _ event: String) {
        logger.debug("menu event \(event) on item \(id)")
        guard event == "clicked" else { return }
        switch menuItems.intent(ofClickOn: id) {
        case .showDetails: notices.showActivities(of: state)
        case .endAll: endAll()
        case .clearRecent: recent.clear()
        case .stop(let activity): requestCancel(activity)
        case .pause(let activity): setPaused(activity, true)
        case .resume(let activity): setPaused(activity, false)
        case .limit(let application, let rate): setLimit(of: application, LimitChange(down: rate, up: rate))
        case .pauseOnMetered(let application, let pauses):
            setLimit(of: application, LimitChange(onMetered: pauses ? LimitRecord.Metered.pause : LimitRecord.Metered.none))
        case nil: break
        }
    }

    /// Asks the activity's owner to stop it, for the menu or Plasma's job tracker; the menu reads "Stopping…" once
    /// the service says it asked.
    /// A refusal is shown: the person clicked Stop, and a source (PackageKit) may refuse what a caller would not.
    private func requestCancel(_ id: ActivityID) {
        let title = state.activities.first { $0.id == id }?.title ?? localized("activity %s", id)
        callService(ServiceMembers.requestCancel.serviceCall(id.rawValue)) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                logger.notice("asked the owner of activity \(id) to stop it")
            case .failure(let error):
                logger.warning("could not ask for activity \(id) to stop: \(error)")
                notices.showStopRefused(title, error)
            }
        }
    }

    /// Pauses or resumes the app's network; the row says "paused" once the service says it is.
    private func setPaused(_ id: ActivityID, _ paused: Bool) {
        callService((paused ? PauseMembers.pause : PauseMembers.resume).serviceCall(id.rawValue)) { [logger] result in
            switch result {
            case .success: logger.notice("\(paused ? "paused" : "resumed") the network of activity \(id)")
            case .failure(let error): logger.warning("could not \(paused ? "pause" : "resume") activity \(id): \(error)")
            }
        }
    }

    /// Changes the rule of every instance of the app (the system service keeps it); the rows say so once the
    /// service holds it.
    private func setLimit(of application: String, _ change: LimitChange) {
        callService(LimitsMembers.setLimit.serviceCall(application, change)) { [logger] result in
            switch result {
            case .success: logger.notice("changed the limits of \(application) from the menu")
            case .failure(let error): logger.warning("could not change the limits of \(application): \(error)")
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
}
