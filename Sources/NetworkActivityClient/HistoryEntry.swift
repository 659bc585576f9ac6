package import NetworkActivityInterface

/// An activity that has ended, as the service's history keeps it (``NetworkActivityClient/history(limit:)``).
public struct HistoryEntry: Sendable, Equatable {
    /// How an activity ended.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// Its program ended it, or its source said it was done, with no stop asked.
        case ended
        /// It ended after someone asked it to stop (``NetworkActivityClient/requestCancel(_:)``).
        case stopped
        /// Its program left the bus without ending it: it exited or crashed.
        case left
        /// Its timeout passed.
        case expired
        /// ``NetworkActivityClient/reset()`` ended it.
        case reset
        /// An outcome that a newer service names and this library does not know.
        case unknown
    }

    /// The activity as it was when it ended: its label, application, source, progress and start. Its
    /// ``ActivityStatus/isCancelRequested`` tells whether it was asked to stop.
    public var activity: ActivityStatus
    /// When it ended, in microseconds since the Unix epoch.
    public var endedAt: UInt64
    public var outcome: Outcome

    public init(activity: ActivityStatus, endedAt: UInt64, outcome: Outcome) {
        self.activity = activity
        self.endedAt = endedAt
        self.outcome = outcome
    }

    /// How long it ran.
    public var duration: Duration {
        .microseconds(Int64(endedAt) - Int64(activity.startedAt))
    }
}

extension HistoryEntry {
    /// An entry as `GetHistory` tells it.
    init(_ details: ActivityDetails) {
        self.init(activity: ActivityStatus(details), endedAt: details.endedAt ?? 0,
                  outcome: details.outcome.flatMap(Outcome.init(rawValue:)) ?? .unknown)
    }
}

extension ServiceCall where Reply == [HistoryEntry] {
    /// `GetHistory`: the newest `limit` entries of the caller's user, all that are kept for 0.
    package static func history(limit: UInt32) -> ServiceCall {
        ServiceMembers.getHistory.serviceCall(limit).map { $0.map(HistoryEntry.init) }
    }
}

extension NetworkActivityClient {
    /// The activities that ended, newest first (`GetHistory`): this program's Unix user's, or every user's for
    /// root. The service keeps the last 100 per user by default, across its restarts.
    ///
    /// - Parameter limit: at most this many; nil for all that are kept.
    public func history(limit: Int? = nil) async throws(NetworkActivityError) -> [HistoryEntry] {
        let limit = limit.map { UInt32(clamping: max($0, 1)) } ?? 0
        return try await call(.history(limit: limit))
    }

    /// Forgets this program's Unix user's entries of the history (`ClearHistory`); returns how many.
    @discardableResult
    public func clearHistory() async throws(NetworkActivityError) -> Int {
        Int(try await call(ServiceMembers.clearHistory.serviceCall()))
    }
}
