// SPDX-License-Identifier: Apache-2.0
import DBusKit
import ProgramSupport
import NetworkActivity
import NetworkActivityInterface

/// The service's object at `ServiceNames.objectPath`: the domain's coordinator behind the interface that
/// `ServiceInterface.swift` declares, and the change signals it sends.
///
/// It meets the bus only through what it is given: the served object's `send`, and the bus's answer of who is
/// behind a caller (`CallerDirectory`). So `NetworkActivityService` serves it on a connection, and the tests serve
/// it in memory. The history, its rules and the access rules are the domain's; the endpoint binds them to the bus.
final class ActivityEndpoint {
    var coordinator: ActivityCoordinator
    let logger: Logger
    /// The Unix user the service runs as.
    let ownUser: UInt32
    /// The object that serves the interface, which sends the replies and signals.
    private(set) var object: ServedObject!
    /// Who is behind the callers, asked of the bus.
    let callers: CallerDirectory
    /// The connections told of changes to work private to their users, noted only where a source can report
    /// private work (the system service counting apps' traffic): elsewhere reading costs no question to the bus.
    private var readers = ActivityReaders()
    var notesReaders = false
    /// The system service's activities as `GetActivities` shows them here, and the rates it measured for this
    /// service's own activities.
    var system = SystemServiceRows()
    /// This service's sources' work that joined one of its own activities (`SourceReport.cgroup`), by item.
    var joined: [SourceWorkItem: (activity: ActivityID, rate: UInt64?)] = [:]
    /// Whether apps' measured traffic shows (`Traffic`).
    var trafficState = TrafficState.off("--traffic is not given")
    /// Which apps' traffic a person wants to see.
    var trafficChoice = TrafficChoice()
    /// Each distinct change signal, built once and sent as copies.
    private var changeSignals = SignalCache<ActivityNotification>()
    /// Where changes are saved for the next instance, if anywhere.
    var stateKeeper: StateKeeper? {
        didSet { coordinator.savesChanges = stateKeeper != nil }
    }

    /// - Parameters:
    ///   - send: where the object's replies and signals go: the connection, or a test's list.
    ///   - lookUpCredentials: the bus's answer to `GetConnectionCredentials`, nil when it has none.
    ///   - lookUpApplication: the application of a process (`CallerApplication`).
    ///   - historyLimit: how many finished activities to keep per user; 0 keeps none.
    init(coordinator: ActivityCoordinator, logger: Logger, ownUser: UInt32, send: @escaping (Message) -> Void,
         lookUpCredentials: @escaping (BusName) -> ConnectionCredentials?,
         lookUpApplication: @escaping (UInt32) -> String? = CallerApplication.of(processID:), historyLimit: Int = 0) {
        self.coordinator = coordinator
        self.coordinator.keepHistory(limitPerUser: historyLimit)
        self.coordinator.serviceUser = ownUser
        self.logger = logger
        self.ownUser = ownUser
        callers = CallerDirectory(lookUpCredentials: lookUpCredentials, lookUpApplication: lookUpApplication)
        // Signals of a change go out before the reply to the call that caused it, so panels wait behind nothing.
        object = ServedObject(self, at: ServiceNames.objectPath, interfaces: [Self.interface],
                              introspectionXML: Self.introspectionXML, send: send,
                              beforeReply: { endpoint in
                                  endpoint.saveChanges()
                                  endpoint.publishNotifications()
                              })
    }

    /// Writes what changed since the last call to the state file, the history's new entries included: before the
    /// reply to the call that changed it, so that an answered call is never lost to a crash.
    func saveChanges() {
        recordFinished()
        guard let stateKeeper, coordinator.hasUnsavedChanges || !stateKeeper.journal.isEmpty else { return }
        coordinator.writeUnsavedChanges(to: &stateKeeper.journal)
        // The tracker is read (copied) only for a fresh file, which comes once in many calls.
        let written = stateKeeper.isDueForFreshFile
            ? stateKeeper.begin(with: coordinator.tracker, history: coordinator.history) : stateKeeper.writeJournal()
        if !written { self.stateKeeper = nil }
    }

    /// Begins a fresh state file with what the service holds now: after a change that the journal cannot
    /// append (entries of the history forgotten).
    func saveAfresh() {
        guard let stateKeeper else { return }
        if !stateKeeper.begin(with: coordinator.tracker, history: coordinator.history) { self.stateKeeper = nil }
    }

    // MARK: The history

    /// Takes the activities that ended into the history, with who was behind a caller's (asked of the bus at the
    /// caller's first activity, while it was there), and into the state file's journal.
    private func recordFinished() {
        coordinator.recordFinished(identify: { owner in
            callers.asked(owner).map { caller in
                CallerIdentity(user: caller.credentials.user, processID: caller.credentials.processID,
                               application: caller.application)
            }
        }) { entry in stateKeeper?.journal.appendFinished(entry) }
    }

    /// `GetHistory` of a caller: what its Unix user may read, newest first.
    func historyEntries(for caller: String, max: UInt32) throws(DBusError) -> [ActivityDetails] {
        coordinator.history(readBy: try knownUser(of: caller), limit: max == 0 ? nil : Int(max)).map(ActivityDetails.init)
    }

    /// `ClearHistory` of a caller: forgets its Unix user's entries; returns how many.
    func clearHistory(for caller: String) throws(DBusError) -> UInt32 {
        let cleared = coordinator.clearHistory(of: try knownUser(of: caller))
        if cleared > 0 {
            saveAfresh()
            logger.info("\(caller) cleared \(cleared) entries of the history")
        }
        return UInt32(cleared)
    }

    /// The Unix user behind a caller, or the error that says the bus did not tell.
    func knownUser(of caller: String) throws(DBusError) -> UInt32 {
        try callers.knownUser(of: caller)
    }

    /// Sends `HistoryChanged` when it is due, to whom it concerns; returns the turn with the next time one may be.
    private func announceHistory(_ turn: TurnEnd) -> TurnEnd {
        if let audience = coordinator.takeHistoryChange(at: turn.now) {
            for destination in destinations(of: audience) {
                object.emit(object.makeSignal(ServiceMembers.historyChanged, to: destination))
            }
        }
        return turn.due(alsoAt: coordinator.nextHistoryChange)
    }

    /// Every listener (one broadcast, nil), or the readers who may see the users' private work.
    private func destinations(of audience: SignalAudience) -> [BusName?] {
        audience.isEveryone ? [nil] : readers.destinations(seeing: audience.users, serviceUser: ownUser)
    }

    /// `caller` read the activities or the history: from now on it is told of changes to the private work its
    /// user may see.
    func noteReader(_ caller: String) {
        guard notesReaders else { return }
        readers.read(caller, user: callers.unixUser(of: caller))
    }

    /// Sends the signals of what changed since the last call: `VisibilityChanged` and `PropertiesChanged`.
    func publishNotifications() {
        guard coordinator.hasNotifications else { return }
        for notification in coordinator.takeNotifications() {
            switch notification {
            case .propertiesChanged(let visible, let activeCount):
                object.emit(changeSignals.signal(for: notification) {
                    var changes: [ChangedProperty] = []
                    if let visible { changes.append(ChangedProperty(ServiceMembers.visible.name, visible)) }
                    if let activeCount {
                        changes.append(ChangedProperty(ServiceMembers.activeCount.name, activeCount))
                    }
                    return object.makePropertiesChanged(of: ServiceNames.interface, changes)
                })
            case .visibilityChanged(let visible):
                object.emit(changeSignals.signal(for: notification) {
                    object.makeSignal(ServiceMembers.visibilityChanged, visible)
                })
            case .activitiesChanged(let changed, let ended):
                object.emit(object.makeSignal(ServiceMembers.activitiesChanged, changed.compactMap(details(of:)),
                                              ended.map(\.rawValue)))
            case .privateActivitiesChanged(let user, let changed, let ended):
                let told = changed.compactMap(details(of:))
                for destination in readers.destinations(seeing: [user], serviceUser: ownUser) {
                    object.emit(object.makeSignal(ServiceMembers.activitiesChanged, told, ended.map(\.rawValue),
                                                  to: destination))
                }
            }
        }
    }

    /// Every activity as `GetActivities` gives it to `caller`: this service's callers', in the order they began, its
    /// sources' (another user's private work left out), then the system service's.
    func allDetails(readBy caller: String) -> [ActivityDetails] {
        coordinator.tracker.all.map(details(of:)) + sourceDetails(readBy: caller) + system.rows
    }

    /// Every activity as `ListActivities` gives it to `caller`, in the same order.
    func allRecords(readBy caller: String) -> [ActivityRecord] {
        coordinator.tracker.all.map(ActivityRecord.init) + sourceDetails(readBy: caller).map(ActivityRecord.init)
            + system.rows.map(ActivityRecord.init)
    }

    private func sourceDetails(readBy caller: String) -> [ActivityDetails] {
        let activities = coordinator.allSourceActivities
        guard activities.contains(where: { $0.report.privateTo != nil }) else { return activities.map(ActivityDetails.init) }
        let user = callers.unixUser(of: caller)
        return activities.filter { AccessRules.maySee(privateTo: $0.report.privateTo, reader: user, serviceUser: ownUser) }
            .map(ActivityDetails.init)
    }

    /// What `GetActivities` tells of a live activity; nil for one that has ended.
    private func details(of id: ActivityID) -> ActivityDetails? {
        if let activity = coordinator.tracker[id] { return details(of: activity) }
        if let activity = coordinator.sourceActivity(id) { return ActivityDetails(activity) }
        return system.row(id)
    }

    func details(of activity: TrackedActivity) -> ActivityDetails {
        var details = ActivityDetails(activity, extras: coordinator.tracker.extras(of: activity.id),
                                      owner: callers[activity.owner])
        if details.rate == nil { details.rate = joinedRate(of: activity.id) }
        return details
    }

    /// The end of the event loop's turn: announces what the domain coalesced over the turn (a count that changed
    /// while the indicator stayed) and what fell due.
    func endTurn() -> TurnEnd {
        let turn = coordinator.endTurn()
        saveChanges()
        publishNotifications()
        return announceHistory(turn)
    }

    /// Hides the indicator at once and says so: the service is stopping.
    func shutDown() {
        coordinator.shutDown()
        publishNotifications()
    }

    /// A caller's unique name left the bus: its activities end, and what is known of it is forgotten. Returns
    /// how many activities ended.
    func callerLeft(_ name: String) -> Int {
        let ended = coordinator.callerLeft(name)
        // Its activities' entries take who it was before it is forgotten.
        recordFinished()
        callers.forget(name)
        readers.forget(name)
        publishNotifications()
        return ended
    }

    /// Sends `CancelRequested` to the connection that said it would stop the activity, and to it alone.
    func askToCancel(_ id: ActivityID, receiver: String, caller: String) {
        guard let destination = try? BusName(receiver) else { return }
        object.emit(object.makeSignal(ServiceMembers.cancelRequested, id.rawValue, to: destination))
        logger.info("\(caller) asked \(receiver) to stop activity \(id)")
    }
}
