// SPDX-License-Identifier: Apache-2.0
/// The sources' work (`ActivitySource`): activities that count and show like callers', but that only their source
/// begins, changes and ends.
extension ActivityCoordinator {
    /// A source's live activity with this id.
    public func sourceActivity(_ id: ActivityID) -> SourceActivity? { sources[id] }

    /// The sources' live activities, in the order they began.
    public var allSourceActivities: [SourceActivity] {
        let cipher = tracker.idCipher
        return cipher.inOrderBegun(sources.activities.values, id: \.id)
    }

    /// A source reports a piece of its work: it begins as an activity when new, and changes when the report
    /// says something new. Throws, and changes nothing, when the work's user or the service is at its quota.
    @discardableResult
    public mutating func report(
        _ report: SourceReport, of item: SourceWorkItem
    ) throws(ActivityError) -> ActivityID {
        if let id = sources.id(of: item) {
            guard let previous = sources.update(id, with: report) else { return id }
            if previous.user != report.user {
                if let before = previous.user { tracker.releaseOutsideActivity(of: before) }
                // The work was admitted: a user learnt later is counted, not refused.
                if let user = report.user { _ = try? tracker.admitOutsideActivity(of: user) }
            }
            noteChange(of: previous.privateTo) { $0.changed(id) }
            return id
        }
        guard tracker.count + sources.count < tracker.limits.total else {
            throw .totalLimitExceeded(limit: tracker.limits.total)
        }
        if let user = report.user { try tracker.admitOutsideActivity(of: user) }
        let now = clock.now()
        let id = try tracker.takeID()
        sources.add(SourceActivity(id: id, item: item, startedAt: now.wallClock, report: report))
        noteChange(of: report.privateTo) { $0.began(id) }
        if report.privateTo == nil { changed(at: now.monotonic) }
        return id
    }

    /// A source's piece of work is no longer network work, or is gone, `way` (`ended`, or `left` when its program
    /// left); returns its id if it was an activity.
    @discardableResult
    public mutating func endSourceWork(_ item: SourceWorkItem, _ way: ActivityOutcome = .ended) -> ActivityID? {
        guard let id = sources.id(of: item) else { return nil }
        endSourceActivities([id], way)
        return id
    }

    /// Ends the source's activities whose items `matching` accepts (all, when its program left the bus), `way`;
    /// returns how many.
    @discardableResult
    public mutating func endSourceWork(
        of source: ActivitySource, _ way: ActivityOutcome, matching: (SourceWorkItem) -> Bool = { _ in true }
    ) -> Int {
        let ids = sources.ids(of: source, matching: matching)
        endSourceActivities(ids, way)
        return ids.count
    }

    private mutating func endSourceActivities(_ ids: [ActivityID], _ way: ActivityOutcome) {
        guard !ids.isEmpty else { return }
        let now = clock.now()
        var publicEnded = false
        for id in ids {
            guard let activity = sources.remove(id) else { continue }
            if let user = activity.report.user { tracker.releaseOutsideActivity(of: user) }
            noteChange(of: activity.report.privateTo) { $0.ended(id) }
            publicEnded = publicEnded || activity.report.privateTo == nil
            if keepsFinished { finished.append(FinishedActivity(activity, way, at: now.wallClock)) }
        }
        // Private work is in no broadcast count: nothing for the policy or the count to see.
        if publicEnded { changed(at: now.monotonic) }
    }

    /// Notes a change among everyone's activities, or among the work private to `privateTo`.
    private mutating func noteChange(of privateTo: UInt32?, _ note: (inout ActivityChanges) -> Void) {
        if let privateTo {
            note(&privateChanges[privateTo, default: ActivityChanges()])
        } else {
            note(&activityChanges)
        }
    }
}
