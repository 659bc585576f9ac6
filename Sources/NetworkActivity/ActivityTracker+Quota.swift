// SPDX-License-Identifier: Apache-2.0
/// The per-user quota: which user each activity counts against, asked of the bus only near the quota, and the
/// one check that callers' activities and the sources' alike pass.
extension ActivityTracker {
    /// Counts one more activity of the caller at `index`, timed ones against `timedUser`, when it stays within its
    /// user's quota. Returns whether it is a bound one that counts as pending, against no one yet.
    mutating func admitAndCount(
        at index: CallerIndex, timedUser: UInt32?, userOf: (String) -> UInt32?
    ) throws(ActivityError) -> Bool {
        if let timedUser, case .pending = callers.values[index].user {
            attribute(at: index, to: timedUser)
        }
        let countedUser = try admitUnderUserQuota(at: index, timedUser: timedUser, userOf: userOf)
        if let countedUser {
            userCounts[countedUser, default: 0] += 1
            if case .pending = callers.values[index].user { attribute(at: index, to: countedUser) }
            return false
        }
        guard timedUser == nil, case .pending = callers.values[index].user else { return false }
        return true
    }

    /// Checks that one more activity of `caller` stays within its user's quota; returns the user it counts against,
    /// nil when it counts against no one yet (pending, or a user the bus could not tell).
    private mutating func admitUnderUserQuota(
        at index: CallerIndex, timedUser: UInt32?, userOf: (String) -> UInt32?
    ) throws(ActivityError) -> UInt32? {
        var user: UInt32
        if let timedUser {
            user = timedUser
        } else {
            switch callers.values[index].user {
            case .unknowable:
                return nil
            case .known(let known):
                user = known
            case .pending:
                // No user can be at the quota while fewer activities are live in all.
                guard activities.count >= limits.perUser else { return nil }
                guard let asked = userOf(callers.keys[index]) else {
                    callers.values[index].user = .unknowable
                    return nil
                }
                user = asked
            }
        }
        try checkQuota(of: user, userOf: userOf, mayAsk: true)
        return user
    }

    /// The per-user quota, checked here alone for callers' activities and the sources' alike: throws when one
    /// more activity of `user` would pass it. Pending activities might be this user's: when it `mayAsk`, they are
    /// counted first (asking `userOf`) when they could make the difference; otherwise (a source's report, with no
    /// caller to ask about) they count against `user`.
    private mutating func checkQuota(
        of user: UInt32, userOf: (String) -> UInt32?, mayAsk: Bool
    ) throws(ActivityError) {
        func held() -> Int {
            userCounts[user, default: 0] + (outsideCounts.isEmpty ? 0 : outsideCounts[user, default: 0])
        }
        guard held() + pendingTotal >= limits.perUser else { return }
        guard mayAsk else { throw .userLimitExceeded(limit: limits.perUser) }
        attributePendingCallers(userOf: userOf)
        guard held() < limits.perUser else { throw .userLimitExceeded(limit: limits.perUser) }
    }

    /// Counts an activity of `user` that no caller holds (a source's), when it stays within the user's quota.
    mutating func admitOutsideActivity(of user: UInt32) throws(ActivityError) {
        try checkQuota(of: user, userOf: { _ in nil }, mayAsk: false)
        outsideCounts[user, default: 0] += 1
    }

    /// Every activity that no caller held has ended.
    mutating func releaseOutsideActivities() {
        outsideCounts = [:]
    }

    /// An activity of `user` that no caller held has ended.
    mutating func releaseOutsideActivity(of user: UInt32) {
        guard let index = outsideCounts.index(forKey: user) else { return }
        if outsideCounts.values[index] > 1 { outsideCounts.values[index] -= 1 } else { outsideCounts.remove(at: index) }
    }

    /// Asks for the user of every caller with pending activities, and counts them against it.
    private mutating func attributePendingCallers(userOf: (String) -> UInt32?) {
        guard pendingTotal > 0 else { return }
        for index in callers.indices {
            guard case .pending = callers.values[index].user, callers.values[index].pendingBound > 0 else { continue }
            if let user = userOf(callers.keys[index]) {
                attribute(at: index, to: user)
            } else {
                pendingTotal -= callers.values[index].pendingBound
                callers.values[index].pendingBound = 0
                callers.values[index].user = .unknowable
            }
        }
    }

    /// The user of the caller at `index` is `user` from now on; its pending bound activities count against it.
    mutating func attribute(at index: CallerIndex, to user: UInt32) {
        let pending = callers.values[index].pendingBound
        if pending > 0 { userCounts[user, default: 0] += pending }
        pendingTotal -= pending
        callers.values[index].pendingBound = 0
        callers.values[index].user = .known(user)
    }
}
