// SPDX-License-Identifier: Apache-2.0
public import ProgramSupport

/// Every live activity, who began it, and when timed ones end.
///
/// Begin, End and the cleanup of one caller cost O(1) and O(k) for the caller's k activities, whatever the
/// number of other callers and activities: activities are found by id in a dictionary, and each connected caller's
/// activities are linked to one another, newest first, so that a caller that leaves is cleaned up by following its
/// own list rather than by searching everyone's.
///
/// Each Unix user's live activities are counted against `ActivityLimits.perUser`, whatever connection began them.
/// Learning a caller's user costs the service a call to the bus, so it is learnt only when the quota could be
/// reached: while fewer activities are live than one user may hold, no user can be at the quota, and a caller's
/// bound activities are counted as pending, against no one. Once as many are live, every pending caller's user is
/// asked for (`userOf`) and its activities counted against it, and each new caller's user is asked for at its
/// first Begin. A timed activity always counts against its creator, whose user is known when it begins.
public struct ActivityTracker {
    struct Entry {
        var activity: TrackedActivity
        /// The neighbours in the owner's list. Followed only while the owner is connected: when it leaves, its
        /// timed activities stay, listed nowhere.
        var newer: ActivityID?
        var older: ActivityID?
        /// False for a timed activity taken over from an earlier instance of the service whose owner had left:
        /// in no caller's list, and no caller is its owner, whatever its name.
        var isListed = true
    }

    /// A connected caller's list of the activities it has begun and that are live, bound and timed: what its
    /// Cancel ends and its limit counts. It stays, empty, until the caller leaves the bus, so that a caller beginning
    /// and ending one activity after another finds it in place.
    struct CallerList {
        var newest: ActivityID?
        var count = 0
        var user = CallerUser.pending
        /// Its bound activities counted against no user yet, while `user` is pending.
        var pendingBound = 0

        /// Puts `id` at the head, counted as pending when `pending`; returns the id it goes before.
        mutating func push(_ id: ActivityID, pending: Bool) -> ActivityID? {
            defer {
                newest = id
                count += 1
                if pending { pendingBound += 1 }
            }
            return newest
        }

        /// Takes an activity out of the list: the newest, or one whose newer neighbour was relinked. Returns the
        /// user it was counted against when bound, and takes it out of the pending count if that user is pending.
        mutating func unlink(isNewest: Bool, older: ActivityID?, isBound: Bool) -> CallerUser {
            if isNewest { newest = older }
            count -= 1
            if isBound, case .pending = user { pendingBound -= 1 }
            return user
        }
    }

    /// What is known of the Unix user behind a caller.
    enum CallerUser {
        /// Not asked yet.
        case pending
        case known(UInt32)
        /// The bus could not tell: the caller has left it, and its bound activities end with it.
        case unknowable
    }

    public let limits: ActivityLimits
    var activities: [ActivityID: Entry] = [:]
    var callers: [String: CallerList] = [:]
    typealias CallerIndex = Dictionary<String, CallerList>.Index
    /// Live activities per Unix user, of the users that are known.
    var userCounts: [UInt32: Int] = [:]
    /// Live activities of each user that no caller holds (the sources'), which count against the same quota.
    var outsideCounts: [UInt32: Int] = [:]
    /// Bound activities whose caller's user is pending, of all callers.
    var pendingTotal = 0
    var expiries = ExpiryQueue()
    var labels = LabelPool()
    /// How many ids were handed out (this instance's and the earlier ones' the state file told of).
    var lastID: UInt32 = 0
    /// How a count becomes an id (`ActivityIDCipher`): the service draws a key, kept in the state file.
    public var idCipher = ActivityIDCipher.sequential
    /// Progress and cancel receivers, of the activities that have them.
    /// Kept by the extension in `ActivityTracker+Progress.swift`.
    var extras = ActivityExtrasTable()
    // The stored state is internal rather than private for the extensions in `ActivityTracker+Progress.swift` and
    // `State/ActivityTracker+Restore.swift`; nothing else in the module touches it.

    public init(limits: ActivityLimits = ActivityLimits(), idCipher: ActivityIDCipher = .sequential) {
        self.limits = limits
        self.idCipher = idCipher
    }

    /// How many activities are live.
    public var count: Int { activities.count }

    /// The activity with this id, if it is live.
    public subscript(id: ActivityID) -> TrackedActivity? { activities[id]?.activity }

    /// Every live activity, in the order they began (their ids' counts: the ids themselves tell nothing).
    public var all: [TrackedActivity] {
        idCipher.inOrderBegun(activities.values.lazy.map(\.activity), id: \.id)
    }

    /// Calls `body` with every live activity and what its owner added to it, in no particular order: for the state
    /// file, which `all` would sort and copy first.
    public func forEachActivity(_ body: (TrackedActivity, ActivityExtras) -> Void) {
        for entry in activities.values { body(entry.activity, extras[entry.activity.id]) }
    }

    /// When the earliest timed activity may be due.
    public var nextDeadline: MonotonicTime? { expiries.earliestDeadline }

    /// How many ids were handed out: a new activity's is the id (`idCipher`) of a count above it. (Named for what
    /// it was when ids were the counts, as the state file names it.)
    public var highestID: UInt32 { lastID }

    /// How many live activities count against `user`.
    public func count(ofUser user: UInt32) -> Int { userCounts[user, default: 0] }

    /// Starts an activity that ends when `caller` leaves the bus. `userOf` tells the Unix user behind a caller
    /// (nil when the bus cannot tell), and is asked only near the per-user quota.
    public mutating func begin(
        label: ActivityLabel, caller: String, at now: Timestamp, userOf: (String) -> UInt32?
    ) throws(ActivityError) -> ActivityID {
        try add(label: label, caller: caller, at: now, expiry: nil, userOf: userOf)
    }

    /// Starts an activity that outlives `caller` and ends by itself `seconds` after `now`; it counts against
    /// `user`, the caller's Unix user.
    public mutating func beginTimed(
        label: ActivityLabel, caller: String, user: UInt32, seconds: UInt32, at now: Timestamp,
        userOf: (String) -> UInt32?
    ) throws(ActivityError) -> ActivityID {
        guard (1...limits.maximumTimeoutSeconds).contains(seconds) else {
            throw .invalidTimeout(seconds: seconds, maximum: limits.maximumTimeoutSeconds)
        }
        let lifetime = Duration.seconds(Int64(seconds))
        let expiry = TrackedActivity.Expiry(
            deadline: now.monotonic + lifetime,
            wallClockDeadline: now.wallClock + UInt64(lifetime.wholeMicroseconds),
            creatorUser: user)
        let id = try add(label: label, caller: caller, at: now, expiry: expiry, userOf: userOf)
        expiries.insert(id, deadline: expiry.deadline)
        return id
    }

    private mutating func add(
        label: ActivityLabel, caller: String, at now: Timestamp, expiry: TrackedActivity.Expiry?,
        userOf: (String) -> UInt32?
    ) throws(ActivityError) -> ActivityID {
        guard activities.count < limits.total else { throw .totalLimitExceeded(limit: limits.total) }
        let (count, id) = try nextID()
        // One lookup of the caller's list for the whole Begin; a new caller's empty list stays until it leaves.
        let index: CallerIndex
        if let known = callerIndex(caller) {
            index = known
        } else {
            index = insertCaller(caller)
        }
        let list = callers.values[index]
        guard list.count < limits.perCaller else { throw .callerLimitExceeded(limit: limits.perCaller) }
        // Most Begins: a bound activity of a caller whose user is not asked for, while no user can be at the quota
        // because fewer activities are live in all. It counts as pending, against no one.
        let pending: Bool
        if expiry == nil, case .pending = list.user, activities.count < limits.perUser {
            pending = true
        } else {
            pending = try admitAndCount(at: index, timedUser: expiry?.creatorUser, userOf: userOf)
        }
        let older = callers.values[index].push(id, pending: pending)
        if pending { pendingTotal += 1 }
        lastID = count
        if let older { activities[older]?.newer = id }
        let activity = TrackedActivity(id: id, owner: caller, label: labels.intern(label), startedAt: now.wallClock,
                                       expiry: expiry)
        activities[id] = Entry(activity: activity, older: older)
        return id
    }

    /// An id for an activity kept elsewhere (a source's), from the same sequence, so that no two share one.
    mutating func takeID() throws(ActivityError) -> ActivityID {
        let (count, id) = try nextID()
        lastID = count
        return id
    }

    /// The next count and its id, past any id an activity of an earlier instance still holds (one that numbered
    /// its ids otherwise); takes nothing.
    private func nextID() throws(ActivityError) -> (UInt32, ActivityID) {
        var count = lastID
        repeat {
            guard count < UInt32.max else { throw .idsExhausted }
            count += 1
        } while activities[ActivityID(rawValue: idCipher.id(forCount: count))] != nil
        return (count, ActivityID(rawValue: idCipher.id(forCount: count)))
    }

    /// Adds `caller`, new, with an empty list; returns where it is in `callers`.
    mutating func insertCaller(_ caller: String) -> CallerIndex {
        callers[caller] = CallerList()
        return callers.index(forKey: caller)!
    }

    mutating func uncount(user: UInt32, times: Int = 1) {
        guard times > 0, let index = userCounts.index(forKey: user) else { return }
        if userCounts.values[index] > times {
            userCounts.values[index] -= times
        } else {
            userCounts.remove(at: index)
        }
    }

    /// Ends one activity. A bound activity may be ended only by its owner; a timed one by any connection of
    /// its creator's Unix user, which `callerUser` tells (nil when it cannot be learnt).
    public mutating func end(_ id: ActivityID, caller: String, callerUser: () -> UInt32?) throws(ActivityError)
        -> EndedActivity
    {
        guard let index = activities.index(forKey: id) else { throw .unknownActivity(id) }
        let (isOwner, creatorUser) = (activities.values[index].activity.owner == caller
                                        && activities.values[index].isListed,
                                      activities.values[index].activity.expiry?.creatorUser)
        guard AccessRules.mayEnd(isOwner: isOwner, timedUser: creatorUser, callerUser: callerUser) else {
            throw .notOwner(id)
        }
        let entry = activities.remove(at: index).value
        let extras = release(entry)
        if entry.activity.expiry != nil {
            expiries.noteEnded { activities[$0] != nil }
        }
        compactIfSparse(&activities)
        return EndedActivity(activity: entry.activity, extras: extras)
    }

    /// Ends every activity that `caller` began, timed ones included.
    public mutating func cancel(caller: String) -> [EndedActivity] {
        guard let index = callerIndex(caller) else { return [] }
        let list = callers.values[index]
        callers.values[index] = CallerList(user: list.user)
        pendingTotal -= list.pendingBound
        var ended: [EndedActivity] = []
        ended.reserveCapacity(list.count)
        var releases = LabelReleases()
        var bound = 0
        var next = list.newest
        while let id = next, let entry = activities.removeValue(forKey: id) {
            next = entry.older
            releases.add(entry.activity.label, to: &labels)
            let extras = extras.activityEnded(entry.activity.id)
            if let expiry = entry.activity.expiry {
                expiries.noteEnded { activities[$0] != nil }
                uncount(user: expiry.creatorUser)
            } else {
                bound += 1
            }
            ended.append(EndedActivity(activity: entry.activity, extras: extras))
        }
        releases.finish(&labels)
        if case .known(let user) = list.user { uncount(user: user, times: bound) }
        compactIfSparse(&activities)
        return ended
    }

    /// `caller` has left the bus: its bound activities end, its timed ones live on to their deadlines. Returns
    /// those that ended; a caller that crashed may have held hundreds, so each is visited once.
    public mutating func callerLeft(_ caller: String) -> [EndedActivity] {
        guard let list = callers.removeValue(forKey: caller) else { return [] }
        pendingTotal -= list.pendingBound
        var ended: [EndedActivity] = []
        var releases = LabelReleases()
        var next = list.newest
        while let id = next, let index = activities.index(forKey: id) {
            next = activities.values[index].older
            guard activities.values[index].activity.isBoundToOwner else { continue }
            let entry = activities.remove(at: index).value
            releases.add(entry.activity.label, to: &labels)
            ended.append(EndedActivity(activity: entry.activity, extras: extras.activityEnded(entry.activity.id)))
        }
        releases.finish(&labels)
        if case .known(let user) = list.user { uncount(user: user, times: ended.count) }
        compactIfSparse(&callers)
        compactIfSparse(&activities)
        return ended
    }

    /// Ends every activity of every caller.
    public mutating func reset() -> [EndedActivity] {
        let ended = activities.values.map { EndedActivity(activity: $0.activity, extras: extras[$0.activity.id]) }
            .sorted { $0.id < $1.id }
        activities = [:]
        callers = [:]
        userCounts = [:]
        pendingTotal = 0
        labels.removeAll()
        expiries.removeAll()
        extras.removeAll()
        return ended
    }

    /// Ends the timed activities whose deadline is `now` or earlier.
    public mutating func expire(at now: MonotonicTime) -> [EndedActivity] {
        // Asked at the end of every turn, when mostly nothing is due.
        guard let earliest = expiries.earliestDeadline, earliest <= now else { return [] }
        let due = expiries.popDue(at: now) { activities[$0] != nil }
        let ended = due.compactMap { id -> EndedActivity? in
            guard let entry = activities.removeValue(forKey: id) else { return nil }
            return EndedActivity(activity: entry.activity, extras: release(entry))
        }
        compactIfSparse(&activities)
        return ended
    }

    /// Lets go of what a removed activity held: its place in its owner's list, its label and its count. A bound
    /// activity's owner is still connected, so its list says how it was counted; a timed one counts against its
    /// creator. Returns what its owner had added to it.
    private mutating func release(_ entry: Entry) -> ActivityExtras {
        labels.release(entry.activity.label)
        let extras = extras.activityEnded(entry.activity.id)
        let isBound = entry.activity.isBoundToOwner
        if let expiry = entry.activity.expiry { uncount(user: expiry.creatorUser) }
        guard entry.isListed, let index = callerIndex(entry.activity.owner) else { return extras }
        if let newer = entry.newer { activities[newer]?.older = entry.older }
        if let older = entry.older { activities[older]?.newer = entry.newer }
        switch callers.values[index].unlink(isNewest: entry.newer == nil, older: entry.older, isBound: isBound) {
        case .known(let user) where isBound:
            uncount(user: user)
        case .pending where isBound:
            pendingTotal -= 1
        default:
            break
        }
        return extras
    }

    /// Where `caller` is in `callers`, if it is there.
    func callerIndex(_ caller: String) -> CallerIndex? {
        callers.index(forKey: caller)
    }
}
