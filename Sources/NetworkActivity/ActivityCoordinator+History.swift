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
            historyAudience.add(finished[index].privateTo)
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
        if cleared > 0 {
            historyAudience.add(nil)
            historyChanges.changed()
        }
        return cleared
    }

    /// Whom to send `HistoryChanged` now, nil when none is due; if one is, it counts as sent.
    public mutating func takeHistoryChange(at now: MonotonicTime) -> SignalAudience? {
        guard historyChanges.isDue(at: now) else { return nil }
        defer { historyAudience = SignalAudience() }
        return historyAudience
    }

    /// When a pending `HistoryChanged` falls due; nil when none is pending.
    public var nextHistoryChange: MonotonicTime? { historyChanges.nextDeadline }
}

/// Whom a signal is for: every listener, or only the connections of the users whose private work it tells of
/// (with root's and the service's own user's, `AccessRules.maySee`).
public struct SignalAudience: Sendable, Equatable {
    public private(set) var isEveryone = false
    public private(set) var users: Set<UInt32> = []

    public init() {}

    /// Adds the audience of a change to work private to `privateTo`, nil for everyone's.
    public mutating func add(_ privateTo: UInt32?) {
        if let privateTo { users.insert(privateTo) } else { isEveryone = true }
    }
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
