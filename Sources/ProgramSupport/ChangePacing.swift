// SPDX-License-Identifier: Apache-2.0
/// When to announce a change that listeners only need to hear of now and then: at once after a quiet `interval`,
/// otherwise once the interval since the last announcement has passed, whatever the number of changes meanwhile.
/// The one pacing every paced announcement uses: the service's `PropertiesChanged`, `ActivitiesChanged` and
/// `HistoryChanged`, the tray's progress, each app's progress on docks and each progress notification.
///
/// It keeps whether a change is pending (`changed`, `isDue`), or leaves that to a caller that knows it already
/// (`allows`, `nextAllowed`).
public struct ChangePacing: Sendable {
    /// In microseconds: asked at the end of every turn of the service's loop, where `Duration`'s arithmetic
    /// would cost more than the rest.
    private let interval: Int64
    private var lastAnnouncement: MonotonicTime?
    /// Whether a change waits to be announced.
    public private(set) var isPending = false

    public init(interval: Duration) {
        self.interval = interval.wholeMicroseconds
    }

    /// Something changed.
    public mutating func changed() {
        isPending = true
    }

    /// Whether to announce now; if so, the announcement counts as made.
    public mutating func isDue(at now: MonotonicTime) -> Bool {
        guard isPending, allows(at: now) else { return false }
        announced(at: now)
        return true
    }

    /// Something was announced at `now` (through `isDue`, or a change that could not wait): the interval counts
    /// from it, and nothing is pending.
    public mutating func announced(at now: MonotonicTime) {
        isPending = false
        lastAnnouncement = now
    }

    /// What was pending is told some other way: nothing is pending, and the interval still counts from the last
    /// announcement.
    public mutating func dismiss() {
        isPending = false
    }

    /// Whether an announcement may go out at `now`, pending or not.
    public func allows(at now: MonotonicTime) -> Bool {
        nextAllowed.map { now >= $0 } ?? true
    }

    /// When the next announcement may go out; nil when it may at once, as none has been made.
    public var nextAllowed: MonotonicTime? {
        lastAnnouncement?.advanced(byMicroseconds: interval)
    }

    /// When a pending change falls due; nil when none is pending.
    public var nextDeadline: MonotonicTime? {
        isPending ? nextAllowed : nil
    }
}
