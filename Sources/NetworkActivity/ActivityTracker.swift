/// Every live activity, who began it, and when timed ones end.
///
/// Begin, End and the cleanup of one caller cost O(1) and O(k) for the caller's k activities, whatever the
/// number of other callers and activities.
public struct ActivityTracker {
    public static let maximumTimeoutSeconds: UInt32 = 86_400

    public let limits: ActivityLimits
    private var activities: [ActivityID: Activity] = [:]
    /// The activities each connected caller has begun, bound and timed: what its Cancel ends. A caller's entry
    /// stays, empty, until it leaves the bus, so that a caller beginning and ending one activity after another
    /// does not allocate a new set each time.
    private var idsByCaller: [String: Set<ActivityID>] = [:]
    private var expiries = ExpiryQueue()
    private var labels = LabelPool()
    private var lastID: UInt32 = 0

    public init(limits: ActivityLimits = ActivityLimits()) {
        self.limits = limits
    }

    /// How many activities are live.
    public var count: Int { activities.count }

    /// The activity with this id, if it is live.
    public subscript(id: ActivityID) -> Activity? { activities[id] }

    /// Every live activity, ordered by id.
    public var all: [Activity] { activities.values.sorted { $0.id < $1.id } }

    /// When the earliest timed activity may be due.
    public var nextDeadline: MonotonicTime? { expiries.earliestDeadline }

    /// Starts an activity that ends when `caller` leaves the bus.
    public mutating func begin(label: ActivityLabel, caller: String, at now: Timestamp) throws(ActivityError)
        -> ActivityID
    {
        try add(label: label, caller: caller, at: now, expiry: nil)
    }

    /// Starts an activity that outlives `caller` and ends by itself `seconds` after `now`.
    public mutating func beginTimed(
        label: ActivityLabel, caller: String, user: UInt32, seconds: UInt32, at now: Timestamp
    ) throws(ActivityError) -> ActivityID {
        guard (1...Self.maximumTimeoutSeconds).contains(seconds) else { throw .invalidTimeout(seconds: seconds) }
        let lifetime = Duration.seconds(Int64(seconds))
        let expiry = Activity.Expiry(
            deadline: now.monotonic + lifetime,
            wallClockDeadline: now.wallClock + UInt64(lifetime.wholeMicroseconds),
            creatorUser: user)
        let id = try add(label: label, caller: caller, at: now, expiry: expiry)
        expiries.insert(id, deadline: expiry.deadline)
        return id
    }

    private mutating func add(label: ActivityLabel, caller: String, at now: Timestamp, expiry: Activity.Expiry?)
        throws(ActivityError) -> ActivityID
    {
        guard activities.count < limits.total else { throw .totalLimitExceeded(limit: limits.total) }
        guard lastID < UInt32.max else { throw .idsExhausted }
        let id = ActivityID(rawValue: lastID + 1)
        try idsByCaller[caller, default: []].insert(id, limit: limits.perCaller)
        lastID = id.rawValue
        activities[id] = Activity(id: id, owner: caller, label: labels.intern(label), startedAt: now.wallClock,
                                  expiry: expiry)
        return id
    }

    /// Ends one activity. A bound activity may be ended only by its owner; a timed one by any connection of
    /// its creator's Unix user, which `callerUser` tells (nil when it cannot be learnt).
    public mutating func end(_ id: ActivityID, caller: String, callerUser: () -> UInt32?) throws(ActivityError)
        -> Activity
    {
        guard let index = activities.index(forKey: id) else { throw .unknownActivity(id) }
        let activity = activities.values[index]
        if let expiry = activity.expiry {
            guard activity.owner == caller || callerUser() == expiry.creatorUser else { throw .notOwner(id) }
        } else {
            guard activity.owner == caller else { throw .notOwner(id) }
        }
        return removeActivity(at: index)
    }

    /// Ends every activity that `caller` began, timed ones included.
    public mutating func cancel(caller: String) -> [Activity] {
        guard let ids = idsByCaller[caller] else { return [] }
        return ids.compactMap { id in activities.index(forKey: id).map { removeActivity(at: $0) } }
    }

    /// `caller` has left the bus: its bound activities end, its timed ones live on to their deadlines. Returns
    /// how many ended; each is looked up once, since a caller that crashed may have held hundreds.
    public mutating func callerLeft(_ caller: String) -> Int {
        guard let ids = idsByCaller.removeValue(forKey: caller) else { return 0 }
        var ended = 0
        for id in ids {
            guard let index = activities.index(forKey: id), activities.values[index].isBoundToOwner else { continue }
            labels.release(activities.remove(at: index).value.label)
            ended += 1
        }
        compactIfSparse()
        return ended
    }

    /// Ends every activity of every caller.
    public mutating func reset() -> [Activity] {
        let ended = all
        activities = [:]
        idsByCaller = [:]
        labels.removeAll()
        expiries.removeAll()
        return ended
    }

    /// Ends the timed activities whose deadline is `now` or earlier.
    public mutating func expire(at now: MonotonicTime) -> [Activity] {
        let due = expiries.popDue(at: now) { activities[$0] != nil }
        guard !due.isEmpty else { return [] }
        let ended = due.compactMap { id -> Activity? in
            guard let activity = activities.removeValue(forKey: id) else { return nil }
            labels.release(activity.label)
            forget(activity.id, of: activity.owner)
            return activity
        }
        compactIfSparse()
        return ended
    }

    private mutating func removeActivity(at index: [ActivityID: Activity].Index) -> Activity {
        let activity = activities.remove(at: index).value
        labels.release(activity.label)
        forget(activity.id, of: activity.owner)
        if activity.expiry != nil {
            expiries.noteEnded { activities[$0] != nil }
        }
        compactIfSparse()
        return activity
    }

    /// Gives memory back once a crowd has gone. A Swift dictionary keeps its capacity when emptied, so a table
    /// that is mostly empty is rebuilt at its present size: O(n), after at least n removals, so O(1) per removal.
    private mutating func compactIfSparse() {
        if activities.capacity > 64, activities.count * 8 < activities.capacity {
            activities = activities.compacted()
        }
        if idsByCaller.capacity > 64, idsByCaller.count * 8 < idsByCaller.capacity {
            idsByCaller = idsByCaller.compacted()
        }
    }

    private mutating func forget(_ id: ActivityID, of caller: String) {
        idsByCaller[caller]?.remove(id)
    }
}

extension Set<ActivityID> {
    /// Adds `id` unless the set holds `limit` ids already; called in place, so that the caller's set is looked up
    /// once.
    fileprivate mutating func insert(_ id: ActivityID, limit: Int) throws(ActivityError) {
        guard count < limit else { throw .callerLimitExceeded(limit: limit) }
        insert(id)
    }
}

extension Dictionary {
    /// The same entries in storage sized for them.
    fileprivate func compacted() -> Self {
        var copy = Self(minimumCapacity: count)
        for (key, value) in self { copy[key] = value }
        return copy
    }
}
