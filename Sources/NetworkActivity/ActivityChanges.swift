// SPDX-License-Identifier: Apache-2.0
/// The activities that began, changed or ended since listeners were last told, in the shape of
/// `ActivitiesChanged`: the ids of those whose whole record is to be sent, and the ids of those that ended.
///
/// Begin and End only append: an activity that ends right after it began (most of them) is taken off the end of
/// the list of those begun, without hashing. Merging and ordering wait until the changes are taken, once per
/// announcement.
struct ActivityChanges {
    private var begunIDs: [ActivityID] = []
    private var changedIDs: [ActivityID] = []
    private var endedIDs: [ActivityID] = []

    var isEmpty: Bool { begunIDs.isEmpty && changedIDs.isEmpty && endedIDs.isEmpty }

    mutating func began(_ id: ActivityID) {
        begunIDs.append(id)
    }

    mutating func changed(_ id: ActivityID) {
        changedIDs.append(id)
    }

    /// An activity that began since listeners were last told is not sent whole, but its end is: a listener may
    /// have read it with `GetActivities` meanwhile.
    mutating func ended(_ id: ActivityID) {
        if begunIDs.last == id { begunIDs.removeLast() }
        endedIDs.append(id)
    }

    /// Hands the changes over, each id once and ordered, and forgets them.
    mutating func take() -> (changed: [ActivityID], ended: [ActivityID]) {
        defer { self = ActivityChanges() }
        var changed = Set(begunIDs).union(changedIDs)
        if !changed.isEmpty, !endedIDs.isEmpty { changed.subtract(endedIDs) }
        return (changed.sorted(), endedIDs.sorted())
    }
}
