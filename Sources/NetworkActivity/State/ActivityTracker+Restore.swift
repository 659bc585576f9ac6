// SPDX-License-Identifier: Apache-2.0
public import ProgramSupport

/// Taking over what an earlier instance of the service saved (`SavedState`).
extension ActivityTracker {
    /// Takes over an activity that an earlier instance of the service saved, as it was, when it is still within
    /// the limits and, for a timed one, its deadline is ahead of `now`. A bound activity is taken only while its
    /// owner is on the bus (`ownerIsPresent`); a timed one whose owner is not is listed under no caller, since a
    /// bus started since may have given its owner's name to another program. Restore in the order of ids.
    /// Returns whether it was taken.
    public mutating func restore(_ saved: SavedActivity, ownerIsPresent: Bool, at now: Timestamp) -> Bool {
        guard activities.count < limits.total, activities[saved.id] == nil,
              ownerIsPresent || saved.lease != nil else { return false }
        var expiry: TrackedActivity.Expiry?
        if let lease = saved.lease {
            guard lease.wallClockDeadline > now.wallClock else { return false }
            let remaining = min(lease.wallClockDeadline - now.wallClock, UInt64(limits.maximumTimeoutSeconds) * 1_000_000)
            expiry = TrackedActivity.Expiry(
                deadline: now.monotonic.advanced(byMicroseconds: Int64(remaining)),
                wallClockDeadline: lease.wallClockDeadline, creatorUser: lease.creatorUser)
            userCounts[lease.creatorUser, default: 0] += 1
        }
        let activity = TrackedActivity(id: saved.id, owner: saved.owner, label: labels.intern(saved.label),
                                       startedAt: saved.startedAt, expiry: expiry)
        if ownerIsPresent {
            let index = callerIndex(saved.owner) ?? insertCaller(saved.owner)
            if let lease = saved.lease, case .pending = callers.values[index].user {
                attribute(at: index, to: lease.creatorUser)
            }
            // A bound one counts as at a Begin: pending until its owner's user is asked for.
            var pending = false
            if expiry == nil {
                switch callers.values[index].user {
                case .pending: pending = true
                case .known(let user): userCounts[user, default: 0] += 1
                case .unknowable: break
                }
            }
            if pending { pendingTotal += 1 }
            let older = callers.values[index].push(saved.id, pending: pending)
            if let older { activities[older]?.newer = saved.id }
            activities[saved.id] = Entry(activity: activity, older: older)
        } else {
            activities[saved.id] = Entry(activity: activity, isListed: false)
        }
        if let expiry { expiries.insert(saved.id, deadline: expiry.deadline) }
        extras.restore(saved, at: now.monotonic)
        return true
    }

    /// Hands out no id of a count up to `count`: an earlier instance of the service did.
    public mutating func skipIDs(through count: UInt32) {
        lastID = max(lastID, count)
    }
}
