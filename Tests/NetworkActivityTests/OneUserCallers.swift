@testable import NetworkActivity
import ProgramSupport

/// Every caller of these tests is one Unix user, 1000, unless a test says otherwise: the per-user quota has tests
/// of its own (`UserQuotaTests`).
func oneUser(_ caller: String) -> UInt32? { 1000 }

extension ActivityTracker {
    mutating func begin(label: ActivityLabel, caller: String, at now: Timestamp) throws(ActivityError) -> ActivityID {
        try begin(label: label, caller: caller, at: now, userOf: oneUser)
    }

    mutating func beginTimed(label: ActivityLabel, caller: String, user: UInt32, seconds: UInt32, at now: Timestamp)
        throws(ActivityError) -> ActivityID
    {
        try beginTimed(label: label, caller: caller, user: user, seconds: seconds, at: now, userOf: oneUser)
    }
}

extension ActivityCoordinator {
    /// The activities that ended, as `takeFinished(_:)` hands them.
    mutating func takeFinished() -> [FinishedActivity] {
        var taken: [FinishedActivity] = []
        takeFinished { taken.append($0) }
        return taken
    }

    mutating func begin(label: String, caller: String) throws(ActivityError) -> ActivityID {
        try begin(label: label, caller: caller, userOf: oneUser)
    }

    mutating func beginTimed(label: String, seconds: UInt32, caller: String, user: UInt32) throws(ActivityError)
        -> ActivityID
    {
        try beginTimed(label: label, seconds: seconds, caller: caller, user: user, userOf: oneUser)
    }
}
