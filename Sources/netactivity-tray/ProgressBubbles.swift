// SPDX-License-Identifier: Apache-2.0
import DBusKit
import DesktopIndicator
import Localization
import NetworkActivityClient
import ProgramSupport

/// `--progress-notifications`: each activity with progress as a notification with a bar, updated in place
/// (`ProgressNotifications` decides when), with a Stop action where the activity can be stopped and the server
/// offers actions. Only on servers that draw the bar: on others (GNOME Shell; Plasma, which has its jobs) it says
/// so once in the log and sends nothing.
final class ProgressBubbles {
    /// The servers that draw the hint `value`, by the name `GetServerInformation` gives.
    static let serversThatDrawBars: Set<String> = ["dunst", "mako", "swaync", "SwayNotificationCenter",
                                                   "Xfce Notify Daemon", "xfce4-notifyd"]
    static let stopAction = "stop"

    private let notifier: DesktopNotifier
    private let logger: Logger
    private let clock: any TimeSource
    private var notifications = ProgressNotifications()
    /// Whether the server draws bars, and offers actions; nil until it has said.
    private var server: (drawsBars: Bool, offersActions: Bool)?
    private var isAskingServer = false
    /// The server's id of each activity's notification, and the way back.
    private var serverIDs: [ActivityID: UInt32] = [:]
    private var activities: [UInt32: ActivityID] = [:]
    private var latest: [ActivityStatus] = []

    init(notifier: DesktopNotifier, logger: Logger, clock: any TimeSource,
         requestCancel: @escaping (ActivityID) -> Void) throws(DBusError) {
        self.notifier = notifier
        self.logger = logger
        self.clock = clock
        try notifier.onAction { [unowned self] id, action in
            guard action == Self.stopAction, let activity = activities[id] else { return }
            requestCancel(activity)
        }
    }

    /// The activities now; returns how long until an update falls due.
    func follow(_ activities: [ActivityStatus]) -> Duration? {
        latest = activities
        guard let server else {
            askServer()
            return nil
        }
        guard server.drawsBars else { return nil }
        let now = clock.monotonicNow()
        let (steps, next) = notifications.follow(activities, at: now, wallClock: clock.now().wallClock)
        for step in steps { show(step, offersActions: server.offersActions) }
        return next.map { now.duration(to: $0) }
    }

    /// Sends what fell due since the last change; returns how long until the next.
    func fireDueTimers() -> Duration? {
        follow(latest)
    }

    private func show(_ step: ProgressNotifications.Step, offersActions: Bool) {
        let notification: DesktopNotification
        let activity: ActivityStatus
        switch step {
        case .progress(let current):
            activity = current
            let stoppable = offersActions && current.isCancellable && !current.isCancelRequested
            notification = DesktopNotification(
                applicationName: "netactivity", iconName: current.applicationIcon ?? IndicatorLook.active.iconName,
                summary: current.title, body: current.progressText.markupEscaped, urgency: .low,
                actions: stoppable ? [Self.stopAction, localized("Stop")] : [],
                value: Int32(OverallProgress.percent(of: [current]) ?? 0),
                stackTag: "netactivity-\(current.id)", expireTimeout: 0)
        case .finished(let ended, let endedAt):
            activity = ended
            let text = FinishedActivities([ended], endedAt: endedAt)
            notification = DesktopNotification(
                applicationName: "netactivity", iconName: ended.applicationIcon ?? IndicatorLook.active.iconName,
                summary: text.summary, body: "", stackTag: "netactivity-\(ended.id)")
        }
        let replaced = serverIDs[activity.id] ?? 0
        if case .finished = step, let id = serverIDs.removeValue(forKey: activity.id) { activities[id] = nil }
        notifier.show(notification, replacing: replaced) { [weak self] id in
            guard let self else { return }
            if case .progress = step, latest.contains(where: { $0.id == activity.id }) {
                serverIDs[activity.id] = id
                activities[id] = activity.id
            }
        }
    }

    private func askServer() {
        guard !isAskingServer else { return }
        isAskingServer = true
        notifier.askServer { [weak self] answer in
            guard let self else { return }
            isAskingServer = false
            guard let (name, offersActions) = answer else {
                logger.debug("no notification server answered; progress notifications wait for one")
                return
            }
            let drawsBars = Self.serversThatDrawBars.contains(name)
            server = (drawsBars, offersActions)
            if drawsBars {
                logger.info("showing progress in \(name)'s notifications")
            } else {
                logger.notice("\(name) draws no progress bars in notifications: --progress-notifications sends nothing to it")
            }
            _ = follow(latest)
        }
    }
}
