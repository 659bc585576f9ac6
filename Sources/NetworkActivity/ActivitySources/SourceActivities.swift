// SPDX-License-Identifier: Apache-2.0
/// The activities that sources report, apart from those callers begin: a source's work is read again from the
/// source after a restart, so none of it is saved, and it ends when the source says, never by a caller's `End`.
///
/// Each counts against its user's quota together with that user's own activities (`ActivityTracker` keeps the
/// count and checks the quota), so that a program that floods a protocol cannot hold more than its user may.
struct SourceActivities {
    private(set) var activities: [ActivityID: SourceActivity] = [:]
    private var ids: [SourceWorkItem: ActivityID] = [:]

    var count: Int { activities.count }
    /// Those that everyone may see, which the broadcast count and the indicator include.
    private(set) var publicCount = 0

    subscript(id: ActivityID) -> SourceActivity? { activities[id] }

    func id(of item: SourceWorkItem) -> ActivityID? { ids[item] }

    mutating func add(_ activity: SourceActivity) {
        if activity.report.privateTo == nil { publicCount += 1 }
        activities[activity.id] = activity
        ids[activity.item] = activity.id
    }

    /// Takes a new report of a live activity; returns the report it replaces, nil when nothing it says changed.
    /// Who may see it stays as it began: a source that changes it ends the work and begins it anew.
    mutating func update(_ id: ActivityID, with report: SourceReport) -> SourceReport? {
        guard let index = activities.index(forKey: id), activities.values[index].report != report else { return nil }
        let previous = activities.values[index].report
        activities.values[index].report = report
        activities.values[index].report.privateTo = previous.privateTo
        return previous
    }

    mutating func remove(_ id: ActivityID) -> SourceActivity? {
        guard let removed = activities.removeValue(forKey: id) else { return nil }
        if removed.report.privateTo == nil { publicCount -= 1 }
        ids[removed.item] = nil
        return removed
    }

    /// The ids of a source's activities whose items `matching` accepts, in order.
    func ids(of source: ActivitySource, matching: (SourceWorkItem) -> Bool) -> [ActivityID] {
        activities.values.filter { $0.source == source && matching($0.item) }.map(\.id).sorted()
    }

    mutating func removeAll() {
        publicCount = 0
        activities = [:]
        ids = [:]
    }
}
