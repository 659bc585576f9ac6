/// Every live activity, who began it, and when timed ones end.
///
/// Begin, End and the cleanup of one caller cost O(1) and O(k) for the caller's k activities, whatever the
/// number of other callers and activities: activities are found by id without hashing (`ActivityTable`), and each
/// connected caller's activities are linked to one another, newest first, so that a caller that leaves is
/// cleaned up by following its own list rather than by searching everyone's.
public struct ActivityTracker {
    public static let maximumTimeoutSeconds: UInt32 = 86_400

    private struct Entry {
        var activity: TrackedActivity
        /// The neighbours in the owner's list. Followed only while the owner is connected: when it leaves, its
        /// timed activities stay, listed nowhere.
        var newer: ActivityID?
        var older: ActivityID?
    }

    /// A connected caller's list of the activities it has begun and that are live, bound and timed: what its
    /// Cancel ends and its limit counts. It stays, empty, until the caller leaves the bus, so that a caller beginning
    /// and ending one activity after another finds it in place.
    private struct CallerList {
        var newest: ActivityID?
        var count = 0

        /// Puts `id` at the head, unless the list holds `limit` already; returns the id it goes before.
        mutating func push(_ id: ActivityID, limit: Int) throws(ActivityError) -> ActivityID? {
            guard count < limit else { throw .callerLimitExceeded(limit: limit) }
            defer { newest = id; count += 1 }
            return newest
        }
    }

    public let limits: ActivityLimits
    private var activities = ActivityTable<Entry>()
    private var callers: [String: CallerList] = [:]
    private var expiries = ExpiryQueue()
    private var labels = LabelPool()
    private var lastID: UInt32 = 0

    public init(limits: ActivityLimits = ActivityLimits()) {
        self.limits = limits
    }

    /// How many activities are live.
    public var count: Int { activities.count }

    /// The activity with this id, if it is live.
    public subscript(id: ActivityID) -> TrackedActivity? { activities[id]?.activity }

    /// Every live activity, ordered by id.
    public var all: [TrackedActivity] { activities.entries.map(\.value.activity).sorted { $0.id < $1.id } }

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
        let expiry = TrackedActivity.Expiry(
            deadline: now.monotonic + lifetime,
            wallClockDeadline: now.wallClock + UInt64(lifetime.wholeMicroseconds),
            creatorUser: user)
        let id = try add(label: label, caller: caller, at: now, expiry: expiry)
        expiries.insert(id, deadline: expiry.deadline)
        return id
    }

    private mutating func add(label: ActivityLabel, caller: String, at now: Timestamp, expiry: TrackedActivity.Expiry?)
        throws(ActivityError) -> ActivityID
    {
        guard activities.count < limits.total else { throw .totalLimitExceeded(limit: limits.total) }
        guard lastID < UInt32.max else { throw .idsExhausted }
        let id = ActivityID(rawValue: lastID + 1)
        let older = try callers[caller, default: CallerList()].push(id, limit: limits.perCaller)
        lastID = id.rawValue
        if let older { activities.update(older) { $0.newer = id } }
        let activity = TrackedActivity(id: id, owner: caller, label: labels.intern(label), startedAt: now.wallClock,
                                expiry: expiry)
        activities.insert(Entry(activity: activity, older: older), for: id)
        return id
    }

    /// Ends one activity. A bound activity may be ended only by its owner; a timed one by any connection of
    /// its creator's Unix user, which `callerUser` tells (nil when it cannot be learnt).
    public mutating func end(_ id: ActivityID, caller: String, callerUser: () -> UInt32?) throws(ActivityError)
        -> TrackedActivity
    {
        guard let activity = activities[id]?.activity else { throw .unknownActivity(id) }
        if let expiry = activity.expiry {
            guard activity.owner == caller || callerUser() == expiry.creatorUser else { throw .notOwner(id) }
        } else {
            guard activity.owner == caller else { throw .notOwner(id) }
        }
        remove(id)
        return activity
    }

    /// Ends every activity that `caller` began, timed ones included.
    public mutating func cancel(caller: String) -> [TrackedActivity] {
        guard let index = callers.index(forKey: caller) else { return [] }
        let list = callers.values[index]
        callers.values[index] = CallerList()
        var ended: [TrackedActivity] = []
        ended.reserveCapacity(list.count)
        var releases = LabelReleases()
        var next = list.newest
        while let id = next, let entry = activities.remove(id) {
            next = entry.older
            releases.add(entry.activity.label, to: &labels)
            if entry.activity.expiry != nil { expiries.noteEnded { activities[$0] != nil } }
            ended.append(entry.activity)
        }
        releases.finish(&labels)
        return ended
    }

    /// `caller` has left the bus: its bound activities end, its timed ones live on to their deadlines. Returns
    /// how many ended; a caller that crashed may have held hundreds, so each is visited once.
    public mutating func callerLeft(_ caller: String) -> Int {
        guard let list = callers.removeValue(forKey: caller) else { return 0 }
        var ended = 0
        var releases = LabelReleases()
        var next = list.newest
        while let id = next, let (older, isBound) = activities.read(id, { ($0.older, $0.activity.isBoundToOwner) }) {
            next = older
            guard isBound, let entry = activities.remove(id) else { continue }
            releases.add(entry.activity.label, to: &labels)
            ended += 1
        }
        releases.finish(&labels)
        compactCallersIfSparse()
        return ended
    }

    /// Ends every activity of every caller.
    public mutating func reset() -> [TrackedActivity] {
        let ended = all
        activities.removeAll()
        callers = [:]
        labels.removeAll()
        expiries.removeAll()
        return ended
    }

    /// Ends the timed activities whose deadline is `now` or earlier.
    public mutating func expire(at now: MonotonicTime) -> [TrackedActivity] {
        let due = expiries.popDue(at: now) { activities[$0] != nil }
        return due.compactMap { id in
            guard let entry = activities.remove(id) else { return nil }
            unlink(entry)
            labels.release(entry.activity.label)
            return entry.activity
        }
    }

    private mutating func remove(_ id: ActivityID) {
        guard let entry = activities.remove(id) else { return }
        unlink(entry)
        labels.release(entry.activity.label)
        if entry.activity.expiry != nil {
            expiries.noteEnded { activities[$0] != nil }
        }
    }

    /// Takes a removed activity out of its owner's list, if the owner is still connected.
    private mutating func unlink(_ entry: Entry) {
        guard let index = callers.index(forKey: entry.activity.owner) else { return }
        if let newer = entry.newer {
            activities.update(newer) { $0.older = entry.older }
        } else {
            callers.values[index].newest = entry.older
        }
        if let older = entry.older { activities.update(older) { $0.newer = entry.newer } }
        callers.values[index].count -= 1
    }

    /// Gives memory back once a crowd of callers has gone. A Swift dictionary keeps its capacity when emptied, so a
    /// table that is mostly empty is rebuilt at its present size: O(n), after at least n removals, so O(1) per
    /// removal.
    private mutating func compactCallersIfSparse() {
        guard callers.capacity > 64, callers.count * 8 < callers.capacity else { return }
        var compacted = [String: CallerList](minimumCapacity: callers.count)
        for (caller, list) in callers { compacted[caller] = list }
        callers = compacted
    }
}

/// Counts the releases of one label in a row, so that a caller's hundred activities labelled alike are released
/// from the pool with one lookup, not a hundred.
private struct LabelReleases {
    private var label: ActivityLabel?
    private var count = 0

    mutating func add(_ next: ActivityLabel, to pool: inout LabelPool) {
        if next.text != label?.text { finish(&pool) }
        label = next
        count += 1
    }

    mutating func finish(_ pool: inout LabelPool) {
        if let label { pool.release(label, times: count) }
        label = nil
        count = 0
    }
}
