/// The activities that ended, for the service's history (`ActivityHistory`): made where each end is noted, with
/// `keepsFinished`, and taken at the end of each call.
extension ActivityCoordinator {
    /// Whether activities ended since `takeFinished` was last called, with `keepsFinished`.
    public var hasFinished: Bool { !finished.isEmpty }

    /// Hands the activities that ended to `body`, in order, for the history, and forgets them. A caller's have no
    /// process, application, or (unless timed) user: who is behind the caller is the service's to add, in place.
    /// With `keepsFinished`, `userOf` was asked about each caller at its first activity (`ActivityTracker`).
    public mutating func takeFinished(_ body: (inout FinishedActivity) -> Void) {
        for index in finished.indices { body(&finished[index]) }
        // Most turns end one activity or none: the buffer is kept for the next.
        finished.removeAll(keepingCapacity: true)
    }
}
