public import ProgramSupport

/// What listeners must be told after a change.
public enum ActivityNotification: Sendable, Hashable {
    /// Properties whose values changed, together: nil means unchanged.
    case propertiesChanged(visible: Bool?, activeCount: UInt32?)
    /// The indicator appears (true) or disappears (false); never twice in a row with the same value.
    case visibilityChanged(Bool)
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
public struct ActivityCoordinator {
    public static let countAnnouncementInterval = Duration.milliseconds(50)
    private static let countAnnouncementMicroseconds = countAnnouncementInterval.wholeMicroseconds

    public private(set) var tracker: ActivityTracker
    private var policy: VisibilityPolicy
    private let clock: any TimeSource
    private var announcedCount: UInt32 = 0
    private var lastCountAnnouncement: MonotonicTime?
    /// Whether the activities changed since listeners were last told (`PropertiesChanged`).
    private var changedSinceAnnouncement = false
    private var notifications: [ActivityNotification] = []
    /// The ids of the system service's live activities, as last heard.
    public private(set) var systemActivityIDs: Set<ActivityID> = []

    public init(limits: ActivityLimits, delays: VisibilityDelays, clock: any TimeSource) {
        tracker = ActivityTracker(limits: limits)
        policy = VisibilityPolicy(delays: delays)
        self.clock = clock
    }

    public var isVisible: Bool { policy.isVisible }
    /// This service's activities and the system service's.
    public var activeCount: UInt32 { UInt32(tracker.count + systemActivityIDs.count) }

    // MARK: Requests

    /// `userOf` tells the Unix user behind a caller, for the per-user quota (`ActivityTracker`).
    public mutating func begin(label: String, caller: String, userOf: (String) -> UInt32?) throws(ActivityError)
        -> ActivityID
    {
        let now = clock.now()
        let id = try tracker.begin(label: ActivityLabel(label), caller: caller, at: now, userOf: userOf)
        changed(at: now.monotonic)
        return id
    }

    public mutating func beginTimed(
        label: String, seconds: UInt32, caller: String, user: UInt32, userOf: (String) -> UInt32?
    ) throws(ActivityError) -> ActivityID {
        let now = clock.now()
        let id = try tracker.beginTimed(
            label: ActivityLabel(label), caller: caller, user: user, seconds: seconds, at: now, userOf: userOf)
        changed(at: now.monotonic)
        return id
    }

    public mutating func end(_ id: ActivityID, caller: String, callerUser: () -> UInt32?) throws(ActivityError) {
        do {
            _ = try tracker.end(id, caller: caller, callerUser: callerUser)
        } catch .unknownActivity(let id) where systemActivityIDs.contains(id) {
            throw .notOwner(id)
        }
        changed(at: clock.monotonicNow())
    }

    /// The system service's live activities are now `ids` (none when it is not running).
    public mutating func followSystemActivities(_ ids: Set<ActivityID>) {
        guard ids != systemActivityIDs else { return }
        systemActivityIDs = ids
        changed(at: clock.monotonicNow())
    }

    /// Ends the caller's activities; returns how many.
    public mutating func cancel(caller: String) -> Int {
        let ended = tracker.cancel(caller: caller).count
        if ended > 0 { changed(at: clock.monotonicNow()) }
        return ended
    }

    /// Ends everything; returns how many.
    public mutating func reset() -> Int {
        let ended = tracker.reset().count
        if ended > 0 { changed(at: clock.monotonicNow()) }
        return ended
    }

    /// A caller left the bus; returns how many of its activities ended.
    public mutating func callerLeft(_ caller: String) -> Int {
        let ended = tracker.callerLeft(caller)
        if ended > 0 { changed(at: clock.monotonicNow()) }
        return ended
    }

    // MARK: Time and announcements

    /// The earliest moment at which something is due: an expiry, a policy delay, or a held-back count.
    public var nextDeadline: MonotonicTime? {
        let countDue = changedSinceAnnouncement
            ? lastCountAnnouncement.map { $0.advanced(byMicroseconds: Self.countAnnouncementMicroseconds) } : nil
        return earliest(earliest(tracker.nextDeadline, policy.nextDeadline), countDue)
    }

    /// Fires what is due (expiries, policy delays) and announces a changed count if its interval has passed.
    /// Called at the end of every turn of the event loop; returns the time it read, `nextDeadline` and
    /// `activeCount`, in the same access: read through the service's object, the state would be copied to read
    /// them.
    @discardableResult
    public mutating func endTurn() -> TurnEnd {
        let now = clock.monotonicNow()
        if !tracker.expire(at: now).isEmpty { changedSinceAnnouncement = true }
        settle(at: now)
        if changedSinceAnnouncement,
           lastCountAnnouncement.map({ now >= $0.advanced(byMicroseconds: Self.countAnnouncementMicroseconds) }) ?? true
        {
            announceCount(at: now)
            notifications.append(.propertiesChanged(visible: nil, activeCount: announcedCount))
        }
        return TurnEnd(now: now, nextDeadline: nextDeadline, activeCount: activeCount)
    }

    /// Hides the indicator at once, whatever the delays: the service is stopping.
    public mutating func shutDown() {
        guard policy.isVisible else { return }
        _ = tracker.reset()
        systemActivityIDs = []
        policy = VisibilityPolicy(delays: policy.delays)
        changedSinceAnnouncement = false
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
    private mutating func changed(at now: MonotonicTime) {
        changedSinceAnnouncement = true
        settle(at: now)
    }

    private mutating func settle(at now: MonotonicTime) {
        guard let visible = policy.update(isBusy: tracker.count > 0 || !systemActivityIDs.isEmpty, at: now)
        else { return }
        let count = activeCount
        let countChanged = count != announcedCount
        if countChanged { announceCount(at: now) }
        // Listeners read everything again at this PropertiesChanged too.
        changedSinceAnnouncement = false
        // VisibilityChanged first: it is what panels wait for, and every message before it on the bus delays it.
        notifications.append(.visibilityChanged(visible))
        notifications.append(.propertiesChanged(visible: visible, activeCount: countChanged ? count : nil))
    }

    private mutating func announceCount(at now: MonotonicTime) {
        announcedCount = activeCount
        lastCountAnnouncement = now
        changedSinceAnnouncement = false
    }
}

private func earliest(_ a: MonotonicTime?, _ b: MonotonicTime?) -> MonotonicTime? {
    guard let a else { return b }
    guard let b else { return a }
    return min(a, b)
}
