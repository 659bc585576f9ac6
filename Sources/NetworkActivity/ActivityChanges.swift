/// The activities that began, changed or ended since listeners were last told, in the shape of
/// `ActivitiesChanged`: the ids of those whose whole record is to be sent, and the ids of those that ended.
struct ActivityChanges {
    private var changedIDs: Set<ActivityID> = []
    private var endedIDs: [ActivityID] = []

    var isEmpty: Bool { changedIDs.isEmpty && endedIDs.isEmpty }

    mutating func began(_ id: ActivityID) {
        changedIDs.insert(id)
    }

    mutating func changed(_ id: ActivityID) {
        changedIDs.insert(id)
    }

    /// An activity that began since listeners were last told is not sent whole, but its end is: a listener may
    /// have read it with `GetActivities` meanwhile.
    mutating func ended(_ id: ActivityID) {
        changedIDs.remove(id)
        endedIDs.append(id)
    }

    /// Hands the changes over, ordered by id, and forgets them.
    mutating func take() -> (changed: [ActivityID], ended: [ActivityID]) {
        defer { self = ActivityChanges() }
        return (changedIDs.sorted(), endedIDs.sorted())
    }
}
