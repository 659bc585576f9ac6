import DBusKit
import DesktopIndicator
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

    private let connection: Connection
    private let logger: Logger
    private let clock: any TimeSource
    private let requestCancel: (ActivityID) -> Void
    private var notifications = ProgressNotifications()
    /// Whether the server draws bars, and offers actions; nil until it has said.
    private var server: (drawsBars: Bool, offersActions: Bool)?
    private var isAskingServer = false
    /// The server's id of each activity's notification, and the way back.
    private var serverIDs: [ActivityID: UInt32] = [:]
    private var activities: [UInt32: ActivityID] = [:]
    private var latest: [ActivityStatus] = []

    init(connection: Connection, logger: Logger, clock: any TimeSource,
         requestCancel: @escaping (ActivityID) -> Void) throws(DBusError) {
        self.connection = connection
        self.logger = logger
        self.clock = clock
        self.requestCancel = requestCancel
        try connection.subscribe(to: MatchRule(interface: DesktopNotification.serverInterface,
                                               member: "ActionInvoked")) { [unowned self] signal in
            var arguments = signal.arguments()
            guard let id = try? arguments.read(UInt32.self), let action = try? arguments.read(String.self),
                  action == Self.stopAction, let activity = activities[id] else { return }
            self.requestCancel(activity)
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
                actions: stoppable ? [Self.stopAction, "Stop"] : [],
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
        connection.send(notification.notifyCall(replacing: replaced)) { [weak self] result in
            guard let self, case .success(var reply) = result, let id = try? reply.read(UInt32.self) else { return }
            if case .progress = step, latest.contains(where: { $0.id == activity.id }) {
                serverIDs[activity.id] = id
                activities[id] = activity.id
            }
        }
    }

    private func askServer() {
        guard !isAskingServer else { return }
        isAskingServer = true
        let information = Message.methodCall(destination: DesktopNotification.serverName,
                                             path: DesktopNotification.serverPath,
                                             interface: DesktopNotification.serverInterface,
                                             member: "GetServerInformation")
        connection.send(information) { [weak self] result in
            guard let self else { return }
            guard case .success(var reply) = result, let name = try? reply.read(String.self) else {
                isAskingServer = false
                logger.debug("no notification server answered; progress notifications wait for one")
                return
            }
            let capabilities = Message.methodCall(destination: DesktopNotification.serverName,
                                                  path: DesktopNotification.serverPath,
                                                  interface: DesktopNotification.serverInterface,
                                                  member: "GetCapabilities")
            connection.send(capabilities) { [weak self] result in
                guard let self else { return }
                isAskingServer = false
                var offersActions = false
                if case .success(var reply) = result, let list = try? reply.read([String].self) {
                    offersActions = list.contains("actions")
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
}
