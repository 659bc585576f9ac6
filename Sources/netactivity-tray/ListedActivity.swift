import NetworkActivityClient
import NetworkActivityInterface

extension ActivityStatus {
    /// An activity as `ListActivities` tells it, without its owner's process, which the tray does not show.
    init(listed record: ActivityRecord) {
        self.init(id: ActivityID(rawValue: record.id), label: record.label, owner: record.owner, ownerProcessID: nil,
                  ownerCommand: nil, startedAt: record.startedAt, deadline: record.deadline)
    }
}
