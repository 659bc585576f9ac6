// SPDX-License-Identifier: Apache-2.0
public import ProgramSupport

/// One piece of network work that keeps the indicator on.
public struct TrackedActivity: Sendable, Equatable {
    /// How a timed activity ends by itself.
    public struct Expiry: Sendable, Equatable {
        public let deadline: MonotonicTime
        /// The deadline as microseconds since the Unix epoch, for display.
        public let wallClockDeadline: UInt64
        /// The Unix user that began it: any connection of that user may end it.
        public let creatorUser: UInt32
    }

    public let id: ActivityID
    /// The unique bus name of the connection that began it (`:1.42`).
    public let owner: String
    public let label: ActivityLabel
    /// Microseconds since the Unix epoch.
    public let startedAt: UInt64
    /// Set for an activity that outlives its owner's connection and ends at a deadline; nil for one that ends
    /// with its owner's connection.
    public let expiry: Expiry?

    /// Whether it ends when its owner's connection leaves the bus.
    public var isBoundToOwner: Bool { expiry == nil }
}

/// What an activity's owner may add to it: how far it is, and who stops it when asked. Kept apart from
/// `TrackedActivity`, for the activities that have it, so that Begin and End, which most activities are all
/// about, copy no more than they did before.
public struct ActivityExtras: Sendable, Equatable {
    /// How far it is, as its owner says.
    public internal(set) var progress = ActivityProgress()
    /// The unique bus name of the connection that will honour a cancel request, while it is on the bus.
    public internal(set) var cancelReceiver: String?
    /// Whether someone has asked it to stop. Ending it stays its owner's decision.
    public internal(set) var isCancelRequested = false

    public init() {}

    /// Whether a cancel request has someone to go to.
    public var isCancellable: Bool { cancelReceiver != nil }
}

/// An activity as it was when it ended, with what its owner had added to it: what the history keeps of it.
public struct EndedActivity: Sendable, Equatable {
    public let activity: TrackedActivity
    public let extras: ActivityExtras

    public var id: ActivityID { activity.id }
}
