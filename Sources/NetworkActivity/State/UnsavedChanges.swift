// SPDX-License-Identifier: Apache-2.0
/// The activities that began, changed or ended since the state file was last written to: the next records of
/// its journal (`StateJournal`). Written before the reply to each call that changed them, so it rarely holds
/// more than one or two.
struct UnsavedChanges {
    private var savedIDs: [ActivityID] = []
    private var endedIDs: [ActivityID] = []

    var isEmpty: Bool { savedIDs.isEmpty && endedIDs.isEmpty }

    /// The activity began or changed: its whole record is written again.
    mutating func save(_ id: ActivityID) {
        savedIDs.append(id)
    }

    mutating func ended(_ id: ActivityID) {
        endedIDs.append(id)
    }

    /// Appends the records to `journal` and forgets them. The records of the live activities go first: an id
    /// that ended is live no longer, so no record of it follows its end.
    mutating func write(to journal: inout StateJournal, from tracker: ActivityTracker) {
        for id in savedIDs {
            guard let activity = tracker[id] else { continue }
            journal.appendActivity(activity, tracker.extras(of: id))
        }
        for id in endedIDs { journal.appendEnded(id) }
        savedIDs.removeAll(keepingCapacity: true)
        endedIDs.removeAll(keepingCapacity: true)
    }
}
