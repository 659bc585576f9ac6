// SPDX-License-Identifier: Apache-2.0
import ProgramSupport

/// Progress and cancel receivers, of the activities that have them, apart from `ActivityTracker`'s records so
/// that Begin and End, which most activities are all about, neither copy nor look them up.
struct ActivityExtrasTable {
    private var extras: [ActivityID: ActivityExtras] = [:]
    /// The activities each connection has said it will stop when asked.
    private var cancelReceivers: [String: Set<ActivityID>] = [:]

    /// Progress and the cancel receiver of an activity; empty when it has none.
    subscript(id: ActivityID) -> ActivityExtras { extras[id] ?? ActivityExtras() }

    mutating func setProgress(of id: ActivityID, percent: UInt32) {
        extras[id, default: ActivityExtras()].progress.set(percent: percent)
    }

    mutating func setTransfer(of id: ActivityID, done: UInt64, total: UInt64, at now: MonotonicTime) {
        extras[id, default: ActivityExtras()].progress.set(done: done, total: total, at: now)
    }

    /// Makes `receiver` the one asked to stop the activity, or nobody.
    mutating func setCancelReceiver(of id: ActivityID, to receiver: String?) {
        if let previous = extras[id]?.cancelReceiver { forget(previous, of: id) }
        extras[id, default: ActivityExtras()].cancelReceiver = receiver
        if let receiver { cancelReceivers[receiver, default: []].insert(id) }
    }

    /// Takes over what a saved activity had.
    mutating func restore(_ saved: SavedActivity, at now: MonotonicTime) {
        guard saved.progress.isKnown || saved.cancelReceiver != nil || saved.isCancelRequested else { return }
        var restored = ActivityExtras()
        restored.progress = saved.progress
        restored.progress.resume(at: now)
        restored.isCancelRequested = saved.isCancelRequested
        extras[saved.id] = restored
        setCancelReceiver(of: saved.id, to: saved.cancelReceiver)
    }

    /// Marks the activity as asked to stop; returns the connection to ask, nil when there is none.
    mutating func requestCancel(of id: ActivityID) -> String? {
        guard let receiver = extras[id]?.cancelReceiver else { return nil }
        extras[id]?.isCancelRequested = true
        return receiver
    }

    /// `connection` has left the bus; returns the activities it would have stopped, which no one will now.
    mutating func receiverLeft(_ connection: String) -> [ActivityID] {
        guard let ids = cancelReceivers.removeValue(forKey: connection) else { return [] }
        for id in ids { extras[id]?.cancelReceiver = nil }
        return ids.sorted()
    }

    /// Lets go of what an ended activity had, and returns it. Most activities have nothing here, and then nothing
    /// is looked up.
    @discardableResult
    mutating func activityEnded(_ id: ActivityID) -> ActivityExtras {
        guard !extras.isEmpty, let removed = extras.removeValue(forKey: id) else { return ActivityExtras() }
        if let receiver = removed.cancelReceiver { forget(receiver, of: id) }
        return removed
    }

    mutating func removeAll() {
        extras = [:]
        cancelReceivers = [:]
    }

    private mutating func forget(_ receiver: String, of id: ActivityID) {
        guard let index = cancelReceivers.index(forKey: receiver) else { return }
        cancelReceivers.values[index].remove(id)
        if cancelReceivers.values[index].isEmpty { cancelReceivers.remove(at: index) }
    }
}
