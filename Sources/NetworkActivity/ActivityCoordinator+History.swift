// SPDX-License-Identifier: Apache-2.0
public import ProgramSupport

/// The activities that ended, for the service's history (`ActivityHistory`): made where each end is noted, with
/// `keepsFinished`, and taken into the history at the end of each call. Who may read or clear whose entries is
/// decided here, not by the service.
extension ActivityCoordinator {
    /// Whether activities ended since `takeFinished` was last called, with `keepsFinished`.
    public var hasFinished: Bool { !finished.isEmpty }

    /// Hands the activities that ended to `body`, in order, and forgets them. A caller's have no process,
    /// application, or (unless timed) user: who is behind the caller is for `body` to add, in place.
    public mutating func takeFinished(_ body: (inout FinishedActivity) -> Void) {
        for index in finished.indices { body(&finished[index]) }
        // Most turns end one activity or none: the buffer is kept for the next.
        finished.removeAll(keepingCapacity: true)
    }

    /// Keeps the newest `limitPerUser` finished activities of each user; 0 keeps none.
    public mutating func keepHistory(limitPerUser: Int) {
        history = ActivityHistory(limitPerUser: limitPerUser)
        keepsFinished = history.isKept
    }

    /// Takes over the entries an earlier instance kept.
    public mutating func restoreHistory(_ saved: ActivityHistory) {
        guard history.isKept, !saved.isEmpty else { return }
        history = saved
    }

    /// Takes the activities that ended into the history, each caller's with who was behind it (`identify`, which
    /// the service answered at the caller's first activity, while it was on the bus); hands each to `recorded`.
    public mutating func recordFinished(
        identify: (String) -> CallerIdentity?, _ recorded: (FinishedActivity) -> Void
    ) {
        guard hasFinished else { return }
        for index in finished.indices {
            if finished[index].source == nil, let owner = identify(finished[index].owner) {
                finished[index].user = finished[index].user ?? owner.user
                finished[index].processID = owner.processID
                finished[index].application = owner.application
            }
            history.record(finished[index])
            recorded(finished[index])
        }
        finished.removeAll(keepingCapacity: true)
        historyChanges.changed()
    }

    /// The entries `reader` may read, newest first: root reads everyone's, anyone else their own user's.
    public func history(readBy reader: UInt32, limit: Int?) -> [FinishedActivity] {
        history.entries(readBy: reader, limit: limit)
    }

    /// Forgets `user`'s entries, which only that user clears; returns how many.
    public mutating func clearHistory(of user: UInt32) -> Int {
        let cleared = history.clear(user: user)
        if cleared > 0 { historyChanges.changed() }
        return cleared
    }

    /// Whether to send `HistoryChanged` now; if so, it counts as sent.
    public mutating func isHistoryChangeDue(at now: MonotonicTime) -> Bool {
        historyChanges.isDue(at: now)
    }

    /// When a pending `HistoryChanged` falls due; nil when none is pending.
    public var nextHistoryChange: MonotonicTime? { historyChanges.nextDeadline }
}

/// Who was behind a caller, as the bus and the system told the service.
public struct CallerIdentity: Sendable, Equatable {
    public var user: UInt32
    public var processID: UInt32?
    public var application: String?

    public init(user: UInt32, processID: UInt32?, application: String?) {
        self.user = user
        self.processID = processID
        self.application = application
    }
}
