// SPDX-License-Identifier: Apache-2.0
/// An activity as the state file keeps it: what a later instance of the service needs to take it over.
///
/// Times are on the wall clock, the one clock that means the same to every process: the monotonic deadline of a
/// timed activity is worked out again from `wallClockDeadline` when it is restored.
public struct SavedActivity: Sendable, Equatable {
    /// What makes a timed activity end by itself.
    public struct Lease: Sendable, Equatable {
        /// Microseconds since the Unix epoch.
        public var wallClockDeadline: UInt64
        public var creatorUser: UInt32
    }

    public var id: ActivityID
    /// The unique bus name of the connection that began it.
    public var owner: String
    public var label: ActivityLabel
    /// Microseconds since the Unix epoch.
    public var startedAt: UInt64
    /// Set for a timed activity, nil for one bound to its owner.
    public var lease: Lease?
    public var progress: ActivityProgress
    /// The unique bus name of the connection that will honour a cancel request.
    public var cancelReceiver: String?
    public var isCancelRequested: Bool

    public init(id: ActivityID, owner: String, label: ActivityLabel, startedAt: UInt64, lease: Lease? = nil,
                progress: ActivityProgress = ActivityProgress(), cancelReceiver: String? = nil,
                isCancelRequested: Bool = false) {
        self.id = id
        self.owner = owner
        self.label = label
        self.startedAt = startedAt
        self.lease = lease
        self.progress = progress
        self.cancelReceiver = cancelReceiver
        self.isCancelRequested = isCancelRequested
    }

    /// A live activity and what its owner added to it.
    public init(_ activity: TrackedActivity, _ extras: ActivityExtras) {
        self.init(
            id: activity.id, owner: activity.owner, label: activity.label, startedAt: activity.startedAt,
            lease: activity.expiry.map { Lease(wallClockDeadline: $0.wallClockDeadline, creatorUser: $0.creatorUser) },
            progress: extras.progress, cancelReceiver: extras.cancelReceiver,
            isCancelRequested: extras.isCancelRequested)
    }
}
