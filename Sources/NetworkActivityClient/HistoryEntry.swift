// SPDX-License-Identifier: Apache-2.0
public import NetworkActivityInterface

/// An activity that has ended, as the service's history keeps it (``NetworkActivityClient/history(limit:)``).
public struct HistoryEntry: Sendable, Hashable {
    /// How an activity ended: `ended`, `stopped`, `left`, `expired`, `reset`, or a word of a newer service.
    public typealias Outcome = ActivityDetails.Outcome

    /// The activity as it was when it ended: its label, application, source, progress and start, and its end.
    /// Its `isCancelRequested` tells whether it was asked to stop.
    public var activity: ActivityStatus

    public init(_ activity: ActivityStatus) {
        self.activity = activity
    }

    /// When it ended, in microseconds since the Unix epoch.
    public var endedAt: UInt64 { activity.endedAt ?? activity.startedAt }
    public var outcome: Outcome { activity.outcome ?? .ended }

    /// How long it ran.
    public var duration: Duration {
        .microseconds(Int64(endedAt) - Int64(activity.startedAt))
    }
}

extension ServiceCall where Reply == [HistoryEntry] {
    /// `GetHistory`: the newest `limit` entries of the caller's user, all that are kept for 0.
    package static func history(limit: UInt32) -> ServiceCall {
        ServiceMembers.getHistory.serviceCall(limit).map { $0.map { HistoryEntry(ActivityStatus($0)) } }
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
