/// When to announce a change that listeners only need to hear of now and then (`HistoryChanged`, the tray's
/// progress): at once after a quiet `interval`, otherwise once the interval since the last announcement has
/// passed, whatever the number of changes meanwhile. The one pacing every paced announcement uses.
public struct ChangePacing: Sendable {
    /// In microseconds: asked at the end of every turn of the service's loop, where `Duration`'s arithmetic
    /// would cost more than the rest.
    private let interval: Int64
    private var lastAnnouncement: MonotonicTime?
    private var isPending = false

    public init(interval: Duration) {
        self.interval = interval.wholeMicroseconds
    }

    /// Something changed.
    public mutating func changed() {
        isPending = true
    }

    /// Whether to announce now; if so, the announcement counts as made.
    public mutating func isDue(at now: MonotonicTime) -> Bool {
        guard isPending else { return false }
        if let lastAnnouncement, now < lastAnnouncement.advanced(byMicroseconds: interval) { return false }
        isPending = false
        lastAnnouncement = now
        return true
    }

    /// Something was announced at `now` outside the pacing (a change that cannot wait): the interval counts from
    /// it, and nothing is pending.
    public mutating func announced(at now: MonotonicTime) {
        isPending = false
        lastAnnouncement = now
    }

    /// When a pending change falls due; nil when none is pending.
    public var nextDeadline: MonotonicTime? {
        guard isPending, let lastAnnouncement else { return nil }
        return lastAnnouncement.advanced(byMicroseconds: interval)
    }
}
