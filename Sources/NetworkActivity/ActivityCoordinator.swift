// SPDX-License-Identifier: Apache-2.0
public import ProgramSupport

/// What listeners must be told after a change.
public enum ActivityNotification: Sendable, Hashable {
    /// Properties whose values changed, together: nil means unchanged.
    case propertiesChanged(visible: Bool?, activeCount: UInt32?)
    /// The indicator appears (true) or disappears (false); never twice in a row with the same value.
    case visibilityChanged(Bool)
    /// Activities that began or changed, by id (this service's and the system service's), and those that ended.
    case activitiesChanged(changed: [ActivityID], ended: [ActivityID])
    /// The same, of work private to one user (`SourceReport.privateTo`): for that user's connections, root's and
    /// the service's own user's alone, never broadcast.
    case privateActivitiesChanged(user: UInt32, changed: [ActivityID], ended: [ActivityID])
}

/// What a turn of the event loop leaves behind.
public struct TurnEnd: Sendable, Equatable {
    /// When the turn ended, as the coordinator's clock read it.
    public let now: MonotonicTime
    /// When something falls due next, if anything does.
    public let nextDeadline: MonotonicTime?
    /// This service's activities and the system service's.
    public let activeCount: UInt32
}

extension TurnEnd {
    /// The same end of a turn, with something else due at `deadline` too.
    public func due(alsoAt deadline: MonotonicTime?) -> TurnEnd {
        guard let deadline else { return self }
        return TurnEnd(now: now, nextDeadline: nextDeadline.map { min($0, deadline) } ?? deadline,
                       activeCount: activeCount)
    }
}

/// The service's state: the activities, the visibility policy, and what has been announced of them.
///
/// A service on the session bus also counts the system service's activities (`followSystemActivities`), which it
/// shows but never ends: they are in `activeCount` and in the policy's view, and an `End` of one is `NotOwner`.
///
/// Every request goes through here on one thread, in order. A change of `visible` is announced at once, with
/// the count; any other change of the activities is coalesced: the count is announced at the end of a turn of the
/// event loop, at most once per `countAnnouncementInterval`, always ending with the current value. It is announced
/// even when it came back to the value last announced (one activity began and another ended), since a listener
/// that reads the activities at each announcement would otherwise go on showing the one that ended.
///
/// Sources' activities (`ActivitySource`) count and show like this service's own, but are ended only by their
/// source, and are not saved: after a restart, the source tells again what still runs. Work private to one user
/// (a user's app's measured traffic) is in no broadcast count or signal: each user's session counts its own.
///
/// What changed in each activity (begun, progress, cancellable, ended) is collected apart and announced at the end
/// of a turn, at most once per `activitiesAnnouncementInterval`; with `savesChanges`, it is also kept for the state
/// file until `writeUnsavedChanges` takes it, and `restore` takes over what an earlier instance saved.
public struct ActivityCoordinator {
    public static let countAnnouncementInterval = Duration.milliseconds(50)
    public static let activitiesAnnouncementInterval = Duration.milliseconds(50)

    // The stored state that the sources' requests and the history use is internal rather than private, for the
    // extensions in `ActivityCoordinator+Sources.swift` and `ActivityCoordinator+History.swift`; nothing else in
    // the module touches it.
    public internal(set) var tracker: ActivityTracker
    private var policy: VisibilityPolicy
    let clock: any TimeSource
    private var announcedCount: UInt32 = 0
    /// `PropertiesChanged` of the count; pending while the activities changed since listeners were last told.
    private var countPacing = ChangePacing(interval: countAnnouncementInterval)
    private var notifications: [ActivityNotification] = []
    /// The ids of the system service's live activities, as last heard.
    public private(set) var systemActivityIDs: Set<ActivityID> = []
    var sources = SourceActivities()
    var activityChanges = ActivityChanges()
    /// What changed of the work private to each user, announced with `activityChanges` to that user alone.
    var privateChanges: [UInt32: ActivityChanges] = [:]
    /// The Unix user the service runs as, who may see everyone's private work (`AccessRules.maySee`).
    public var serviceUser: UInt32 = 0
    /// `ActivitiesChanged`, pending while `activityChanges` holds any.
    private var activitiesPacing = ChangePacing(interval: activitiesAnnouncementInterval)
    /// Whether the changes of this service's own activities are kept until `writeUnsavedChanges` takes them,
    /// for a state file.
    public var savesChanges = false {
        didSet { if !savesChanges { unsaved = UnsavedChanges() } }
    }
    private var unsaved = UnsavedChanges()
    /// Whether the activities that end are kept until `takeFinished` takes them, for the history.
    public var keepsFinished = false {
        didSet { if !keepsFinished { finished = [] } }
    }
    var finished: [FinishedActivity] = []
    /// The activities that ended, per Unix user (`GetHistory`); kept with `keepHistory(limitPerUser:)`.
    public internal(set) var history = ActivityHistory(limitPerUser: 0)
    /// `HistoryChanged`, at most once a second.
    var historyChanges = ChangePacing(interval: .seconds(1))
    /// Whom the pending `HistoryChanged` is for.
    var historyAudience = SignalAudience()

    /// `idCipher`: how ids are made of the count (`ActivityIDCipher`); the counts themselves by default.
    public init(limits: ActivityLimits, delays: VisibilityDelays, clock: any TimeSource,
                idCipher: ActivityIDCipher = .sequential) {
        tracker = ActivityTracker(limits: limits, idCipher: idCipher)
        policy = VisibilityPolicy(delays: delays)
        self.clock = clock
    }

    public var isVisible: Bool { policy.isVisible }
    /// This service's activities, its sources' that everyone may see, and the system service's.
    public var activeCount: UInt32 { UInt32(tracker.count + sources.publicCount + systemActivityIDs.count) }

    // MARK: Requests

    /// `userOf` tells the Unix user behind a caller, for the per-user quota (`ActivityTracker`).
    public mutating func begin(label: String, caller: String, userOf: (String) -> UInt32?) throws(ActivityError)
        -> ActivityID
    {
        let now = clock.now()
        let id = try tracker.begin(label: ActivityLabel(label), caller: caller, at: now, userOf: userOf)
        began(id)
        changed(at: now.monotonic)
        return id
    }

    public mutating func beginTimed(
        label: String, seconds: UInt32, caller: String, user: UInt32, userOf: (String) -> UInt32?
    ) throws(ActivityError) -> ActivityID {
        let now = clock.now()
        let id = try tracker.beginTimed(
            label: ActivityLabel(label), caller: caller, user: user, seconds: seconds, at: now, userOf: userOf)
        began(id)
        changed(at: now.monotonic)
        return id
    }

    public mutating func end(_ id: ActivityID, caller: String, callerUser: () -> UInt32?) throws(ActivityError) {
        let activity: EndedActivity
        do {
            activity = try tracker.end(id, caller: caller, callerUser: callerUser)
        } catch .unknownActivity(let id) where isOthers(id, seenBy: callerUser()) {
            throw .notOwner(id)
        }
        ended(activity, .ended)
        changed(at: clock.monotonicNow())
    }

    /// Sets how far an activity is; see `ActivityTracker.setProgress`.
    public mutating func setProgress(
        _ id: ActivityID, percent: UInt32, caller: String, userOf: (String) -> UInt32?
    ) throws(ActivityError) {
        try ownOnly(id, caller: caller, userOf: userOf) { (tracker: inout ActivityTracker) throws(ActivityError) in
            try tracker.setProgress(id, percent: percent, caller: caller, userOf: userOf)
        }
        changed(id)
    }

    /// Sets the amounts an activity has moved; see `ActivityTracker.setTransfer`.
    public mutating func setTransfer(
        _ id: ActivityID, done: UInt64, total: UInt64, caller: String, userOf: (String) -> UInt32?
    ) throws(ActivityError) {
        let now = clock.monotonicNow()
        try ownOnly(id, caller: caller, userOf: userOf) { (tracker: inout ActivityTracker) throws(ActivityError) in
            try tracker.setTransfer(id, done: done, total: total, caller: caller, at: now, userOf: userOf)
        }
        changed(id)
    }

    /// Says who will stop an activity when asked; see `ActivityTracker.setCancellable`.
    public mutating func setCancellable(
        _ id: ActivityID, _ cancellable: Bool, caller: String, userOf: (String) -> UInt32?
    ) throws(ActivityError) {
        try ownOnly(id, caller: caller, userOf: userOf) { (tracker: inout ActivityTracker) throws(ActivityError) in
            try tracker.setCancellable(id, cancellable, caller: caller, userOf: userOf)
        }
        changed(id)
    }

    /// Marks an activity as asked to stop; returns the connection to send `CancelRequested`. See
    /// `ActivityTracker.requestCancel`. A source's activity is never stopped from here: PackageKit, for one,
    /// takes a transaction's `Cancel` only from the connection that created it.
    public mutating func requestCancel(
        _ id: ActivityID, caller: String, serviceUser: UInt32, userOf: (String) -> UInt32?
    ) throws(ActivityError) -> String {
        if sources[id] != nil {
            throw isOthers(id, seenBy: userOf(caller)) ? .notCancellable(id) : .unknownActivity(id)
        }
        let receiver = try ownOnly(id, caller: caller, userOf: userOf) { (tracker: inout ActivityTracker) throws(ActivityError) in
            try tracker.requestCancel(id, caller: caller, serviceUser: serviceUser, userOf: userOf)
        }
        changed(id)
        return receiver
    }

    /// One of this service's activities began.
    private mutating func began(_ id: ActivityID) {
        activityChanges.began(id)
        if savesChanges { unsaved.save(id) }
    }

    /// One of this service's activities changed (progress, who stops it).
    private mutating func changed(_ id: ActivityID) {
        activityChanges.changed(id)
        if savesChanges { unsaved.save(id) }
    }

    /// One of this service's activities ended, `way`.
    private mutating func ended(_ activity: EndedActivity, _ way: ActivityOutcome) {
        activityChanges.ended(activity.id)
        if savesChanges { unsaved.ended(activity.id) }
        if keepsFinished { finished.append(FinishedActivity(activity, way, at: clock.now().wallClock)) }
    }

    /// Runs a request on one of this service's activities: the system service's are seen, never changed here.
    private mutating func ownOnly<Result>(
        _ id: ActivityID, caller: String, userOf: (String) -> UInt32?,
        _ request: (inout ActivityTracker) throws(ActivityError) -> Result
    ) throws(ActivityError) -> Result {
        do {
            return try request(&tracker)
        } catch .unknownActivity(let id) where isOthers(id, seenBy: userOf(caller)) {
            throw .notOwner(id)
        }
    }

    /// Whether the id is of an activity this service shows to a caller of Unix user `reader` but callers do not
    /// own: a source's or the system service's. Another user's private work does not exist for the caller.
    private func isOthers(_ id: ActivityID, seenBy reader: UInt32?) -> Bool {
        if let activity = sources[id] {
            return AccessRules.maySee(privateTo: activity.report.privateTo, reader: reader, serviceUser: serviceUser)
        }
        return systemActivityIDs.contains(id)
    }

    /// The system service's live activities are now `ids` (none when it is not running), of which those in
    /// `updated` say something new.
    public mutating func followSystemActivities(_ ids: Set<ActivityID>, updated: Set<ActivityID> = []) {
        for id in updated.intersection(systemActivityIDs).sorted() { activityChanges.changed(id) }
        guard ids != systemActivityIDs else { return }
        for id in ids.subtracting(systemActivityIDs).sorted() { activityChanges.began(id) }
        for id in systemActivityIDs.subtracting(ids).sorted() { activityChanges.ended(id) }
        systemActivityIDs = ids
        changed(at: clock.monotonicNow())
    }

    /// The rate the kernel measured for these activities of this service's own changed (`TrafficWatch`): they are
    /// announced as changed.
    public mutating func measuredRatesChanged(_ ids: Set<ActivityID>) {
        for id in ids.sorted() where tracker[id] != nil { activityChanges.changed(id) }
    }

    /// Ends the caller's activities; returns how many.
    public mutating func cancel(caller: String) -> Int {
        let ended = tracker.cancel(caller: caller)
        for activity in ended { self.ended(activity, .ended) }
        if !ended.isEmpty { changed(at: clock.monotonicNow()) }
        return ended.count
    }

    /// Ends everything; returns how many.
    public mutating func reset() -> Int {
        let ended = tracker.reset()
        for activity in ended { self.ended(activity, .reset) }
        if !ended.isEmpty { changed(at: clock.monotonicNow()) }
        return ended.count
    }

    /// A connection left the bus: the activities it began end, and those it would have stopped are no longer
    /// cancellable. Returns how many ended.
    public mutating func callerLeft(_ caller: String) -> Int {
        let ended = tracker.callerLeft(caller)
        for activity in ended { self.ended(activity, .left) }
        for id in tracker.receiverLeft(caller) { changed(id) }
        if !ended.isEmpty { changed(at: clock.monotonicNow()) }
        return ended.count
    }

    // MARK: Across restarts

    /// Whether changes wait to be written to the state file.
    public var hasUnsavedChanges: Bool { !unsaved.isEmpty }

    /// Appends the records of what changed since the last call to `journal`.
    public mutating func writeUnsavedChanges(to journal: inout StateJournal) {
        unsaved.write(to: &journal, from: tracker)
    }

    /// Takes over the activities an earlier instance of the service saved (`SavedState`); `isOnBus` tells whether
    /// a unique name is on the bus now, nil when the state is from another bus, where a unique name means nobody
    /// here. Activities bound to an owner that left are not taken, nor a cancel receiver that left; timed ones are,
    /// until their deadlines. Activities that were showing show at once, without the show delay again. Returns how
    /// many were taken.
    public mutating func restore(_ state: SavedState, isOnBus: ((String) -> Bool)?) -> Int {
        let now = clock.now()
        var restored = 0
        for var saved in state.activities {
            if let receiver = saved.cancelReceiver, isOnBus?(receiver) != true { saved.cancelReceiver = nil }
            if tracker.restore(saved, ownerIsPresent: isOnBus?(saved.owner) == true, at: now) { restored += 1 }
        }
        if let cipher = state.idCipher { tracker.idCipher = cipher } // else the new key's ids pass the file's
        tracker.skipIDs(through: state.highestID)
        if restored > 0 {
            policy.showAtOnce(at: now.monotonic)
            announceCount(at: now.monotonic)
            notifications.append(.visibilityChanged(true))
            notifications.append(.propertiesChanged(visible: true, activeCount: announcedCount))
        }
        return restored
    }

    // MARK: Time and announcements

    /// The earliest moment at which something is due: an expiry, a policy delay, or a held-back count.
    public var nextDeadline: MonotonicTime? {
        let countDue = countPacing.nextDeadline
        let activitiesDue = activityChanges.isEmpty && privateChanges.isEmpty ? nil : activitiesPacing.nextAllowed
        return earliest(earliest(earliest(tracker.nextDeadline, policy.nextDeadline), countDue), activitiesDue)
    }

    /// Fires what is due (expiries, policy delays) and announces a changed count if its interval has passed.
    /// Called at the end of every turn of the event loop; returns the time it read, `nextDeadline` and
    /// `activeCount`, in the same access: read through the service's object, the state would be copied to read
    /// them.
    @discardableResult
    public mutating func endTurn() -> TurnEnd {
        let now = clock.monotonicNow()
        let expired = tracker.expire(at: now)
        if !expired.isEmpty {
            countPacing.changed()
            for activity in expired { ended(activity, .expired) }
        }
        settle(at: now)
        if countPacing.isDue(at: now) {
            announcedCount = activeCount
            notifications.append(.propertiesChanged(visible: nil, activeCount: announcedCount))
        }
        if !activityChanges.isEmpty || !privateChanges.isEmpty, activitiesPacing.allows(at: now) {
            if !activityChanges.isEmpty {
                let (changed, ended) = activityChanges.take()
                notifications.append(.activitiesChanged(changed: changed, ended: ended))
            }
            for user in privateChanges.keys.sorted() {
                let (changed, ended) = privateChanges[user]!.take()
                notifications.append(.privateActivitiesChanged(user: user, changed: changed, ended: ended))
            }
            privateChanges = [:]
            activitiesPacing.announced(at: now)
        }
        return TurnEnd(now: now, nextDeadline: nextDeadline, activeCount: activeCount)
    }

    /// Hides the indicator at once, whatever the delays: the service is stopping.
    public mutating func shutDown() {
        guard policy.isVisible else { return }
        _ = tracker.reset()
        sources.removeAll()
        privateChanges = [:]
        tracker.releaseOutsideActivities()
        systemActivityIDs = []
        policy = VisibilityPolicy(delays: policy.delays)
        countPacing.dismiss()
        notifications.append(.visibilityChanged(false))
        notifications.append(.propertiesChanged(visible: false, activeCount: activeCount != announcedCount ? 0 : nil))
    }

    /// Whether anything waits to be told: most calls change nothing worth announcing.
    public var hasNotifications: Bool { !notifications.isEmpty }

    /// Hands over what listeners must be told, in order, and forgets it.
    public mutating func takeNotifications() -> [ActivityNotification] {
        defer { notifications = [] }
        return notifications
    }

    /// The activities changed: the policy sees the new count, and listeners will be told.
    mutating func changed(at now: MonotonicTime) {
        countPacing.changed()
        settle(at: now)
    }

    private mutating func settle(at now: MonotonicTime) {
        let isBusy = tracker.count > 0 || sources.publicCount > 0 || !systemActivityIDs.isEmpty
        guard let visible = policy.update(isBusy: isBusy, at: now)
        else { return }
        let count = activeCount
        let countChanged = count != announcedCount
        if countChanged { announceCount(at: now) }
        // Listeners read everything again at this PropertiesChanged too.
        countPacing.dismiss()
        // VisibilityChanged first: it is what panels wait for, and every message before it on the bus delays it.
        notifications.append(.visibilityChanged(visible))
        notifications.append(.propertiesChanged(visible: visible, activeCount: countChanged ? count : nil))
    }

    private mutating func announceCount(at now: MonotonicTime) {
        announcedCount = activeCount
        countPacing.announced(at: now)
    }
}

private func earliest(_ a: MonotonicTime?, _ b: MonotonicTime?) -> MonotonicTime? {
    guard let a else { return b }
    guard let b else { return a }
    return min(a, b)
}
