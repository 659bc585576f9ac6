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
    /// How far it is, as its owner says.
    public internal(set) var progress = ActivityProgress()
    /// The unique bus name of the connection that will honour a cancel request, while it is on the bus.
    public internal(set) var cancelReceiver: String?
    /// Whether someone has asked it to stop. Ending it stays its owner's decision.
    public internal(set) var isCancelRequested = false

    init(id: ActivityID, owner: String, label: ActivityLabel, startedAt: UInt64, expiry: Expiry?) {
        self.id = id
        self.owner = owner
        self.label = label
        self.startedAt = startedAt
        self.expiry = expiry
    }

    /// Whether it ends when its owner's connection leaves the bus.
    public var isBoundToOwner: Bool { expiry == nil }
    /// Whether a cancel request has someone to go to.
    public var isCancellable: Bool { cancelReceiver != nil }
}
