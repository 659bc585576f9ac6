// SPDX-License-Identifier: Apache-2.0
import ProgramSupport

/// Progress and cancellation, by the rules of `AccessRules`. What they set is kept in `extras`, apart from the
/// activities' records.
extension ActivityTracker {
    /// Sets how far an activity is, in percent. Any connection of the activity's Unix user may, so that a child
    /// of the program that began it can report. `userOf` tells the Unix user behind a connection.
    public mutating func setProgress(
        _ id: ActivityID, percent: UInt32, caller: String, userOf: (String) -> UInt32?
    ) throws(ActivityError) {
        guard percent <= 100 else { throw .invalidPercent(percent) }
        guard AccessRules.mayReport(on: try live(id), caller: caller, userOf: userOf) else { throw .notOwner(id) }
        extras.setProgress(of: id, percent: percent)
    }

    /// Sets the bytes an activity has moved out of `total` (0 when unknown), with the same rule as `setProgress`.
    public mutating func setTransfer(
        _ id: ActivityID, done: UInt64, total: UInt64, caller: String, at now: MonotonicTime,
        userOf: (String) -> UInt32?
    ) throws(ActivityError) {
        guard total == 0 || done <= total else { throw .invalidTransfer(done: done, total: total) }
        guard AccessRules.mayReport(on: try live(id), caller: caller, userOf: userOf) else { throw .notOwner(id) }
        extras.setTransfer(of: id, done: done, total: total, at: now)
    }

    /// Makes `caller` the one asked to stop the activity, or nobody. For an activity bound to its owner, only the
    /// owner may say; for a timed one, any connection of its user.
    public mutating func setCancellable(
        _ id: ActivityID, _ cancellable: Bool, caller: String, userOf: (String) -> UInt32?
    ) throws(ActivityError) {
        guard AccessRules.mayChooseWhoStops(try live(id), caller: caller, userOf: userOf) else {
            throw .notOwner(id)
        }
        extras.setCancelReceiver(of: id, to: cancellable ? caller : nil)
    }

    /// Marks the activity as asked to stop, and returns the connection to ask. Any connection of the activity's
    /// user may ask, and so may root and `serviceUser`.
    public mutating func requestCancel(
        _ id: ActivityID, caller: String, serviceUser: UInt32, userOf: (String) -> UInt32?
    ) throws(ActivityError) -> String {
        guard AccessRules.mayAskToStop(try live(id), caller: caller, serviceUser: serviceUser, userOf: userOf) else {
            throw .notOwner(id)
        }
        guard let receiver = extras.requestCancel(of: id) else { throw .notCancellable(id) }
        return receiver
    }

    /// `connection` has left the bus: the activities it would have stopped when asked can no longer be. Returns
    /// them; call it after `callerLeft`, which has ended those it owned.
    public mutating func receiverLeft(_ connection: String) -> [ActivityID] {
        extras.receiverLeft(connection)
    }

    private func live(_ id: ActivityID) throws(ActivityError) -> TrackedActivity {
        guard let activity = self[id] else { throw .unknownActivity(id) }
        return activity
    }

    /// Progress and the cancel receiver of an activity; empty when it has none.
    public func extras(of id: ActivityID) -> ActivityExtras {
        extras[id]
    }
}
