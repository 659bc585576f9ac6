// SPDX-License-Identifier: Apache-2.0
/// Why the service refused a request. Nothing has changed when one of these is thrown.
public enum ActivityError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No live activity has this id: it never existed or has already ended.
    case unknownActivity(ActivityID)
    /// The activity belongs to another connection (or, for a timed one, another Unix user).
    case notOwner(ActivityID)
    /// The caller already holds as many activities as one connection may.
    case callerLimitExceeded(limit: Int)
    /// The caller's Unix user already holds as many activities as one user may, from all its connections.
    case userLimitExceeded(limit: Int)
    /// The service already tracks as many activities as it may.
    case totalLimitExceeded(limit: Int)
    /// Every id has been handed out once; ids are never reused while the service runs.
    case idsExhausted
    case invalidLabel(String)
    case invalidTimeout(seconds: UInt32, maximum: UInt32)
    case invalidPercent(UInt32)
    case invalidTransfer(done: UInt64, total: UInt64)
    /// Nobody would hear a cancel request: no connection has said it will honour one, or it has left the bus.
    case notCancellable(ActivityID)
    /// `Pause` or `Resume` of an activity whose network the service cannot hold back: only an app's measured
    /// traffic can be paused.
    case notPausable(ActivityID)

    public var description: String {
        switch self {
        case .unknownActivity(let id): "no activity with id \(id) is active"
        case .notOwner(let id): "activity \(id) belongs to another caller"
        case .callerLimitExceeded(let limit): "a caller may hold at most \(limit) activities"
        case .userLimitExceeded(let limit): "a Unix user may hold at most \(limit) activities, from all its connections"
        case .totalLimitExceeded(let limit): "at most \(limit) activities may be active at once"
        case .idsExhausted: "every activity id has been used; restart the service"
        case .invalidLabel(let reason): "the label \(reason)"
        case .invalidTimeout(let seconds, let maximum):
            "a timeout of \(seconds) s is out of range; give 1 to \(maximum) seconds"
        case .invalidPercent(let percent): "a percent of \(percent) is out of range; give 0 to 100"
        case .invalidTransfer(let done, let total):
            "\(done) bytes done is more than the total of \(total); give done from 0 to total, or a total of 0 when unknown"
        case .notCancellable(let id): "nobody has said that activity \(id) can be stopped"
        case .notPausable(let id): "activity \(id) is not an app's measured traffic: only that can be paused"
        }
    }
}
