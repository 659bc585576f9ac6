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
