import NetworkActivity
import NetworkActivityInterface

extension ActivityRecord {
    /// What `ListActivities` tells of `activity`.
    init(_ activity: TrackedActivity) {
        self.init(id: activity.id.rawValue, owner: activity.owner, label: activity.label.text,
                  startedAt: activity.startedAt, deadline: activity.expiry?.wallClockDeadline)
    }
}
