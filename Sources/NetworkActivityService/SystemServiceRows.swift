// SPDX-License-Identifier: Apache-2.0
import NetworkActivity
import NetworkActivityInterface

/// The system service's activities as a session service shows them (`SystemServiceFollower` reads them whole):
/// counted and listed like its own, owners marked `system:`. Of the measured traffic, only what the session's
/// user may see shows (`TrafficVisibility`), and what runs in the cgroup of one of the session's own activities
/// is that activity's rate rather than a row of its own (unless it is paused: then its row stays, saying so).
struct SystemServiceRows {
    /// The rows as `GetActivities` shows them here.
    private(set) var rows: [ActivityDetails] = []
    /// The rates the kernel measured for the service's own activities, from the system service's traffic in
    /// their callers' cgroups, by activity.
    private(set) var measuredRates: [ActivityID: UInt64] = [:]

    /// What changed when the system service's records were taken.
    struct Changes {
        var shown: Set<ActivityID>
        var updated: Set<ActivityID>
        var measured: Set<ActivityID>
    }

    /// Takes the system service's `records` (none when it is not running), for a session of Unix user `user`
    /// that shows measured traffic when `showsTraffic`, of the apps `choice` keeps; `activityInCgroup` finds the
    /// session's own activity in a cgroup of the user's.
    mutating func take(_ records: [ActivityDetails], user: UInt32, showsTraffic: Bool, choice: TrafficChoice,
                       activityInCgroup: (String) -> ActivityID?) -> Changes {
        var shown: [ActivityDetails] = []
        var measured: [ActivityID: UInt64] = [:]
        for record in records {
            var marked = record
            if record.source == .traffic {
                guard showsTraffic, TrafficVisibility.shows(cgroup: record.owner, toUser: user),
                      choice.shows(record.application) else { continue }
                // A paused app's row stays, with its Resume, whoever runs in its cgroup.
                if record.isPaused != true, let own = activityInCgroup(record.owner), let rate = record.rate {
                    measured[own, default: 0] += rate
                    continue
                }
            } else {
                // The system service's own callers' activities are root's, or its own user's: shown as root's.
                marked.user = 0
            }
            marked.owner = ServiceNames.systemOwnerPrefix + record.owner
            marked.isSystem = true
            shown.append(marked)
        }
        let before = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let updated = shown.filter { record in before[record.id].map { $0 != record } ?? false }
        let measuredChanged = Set(measured.keys).union(measuredRates.keys).filter { measured[$0] != measuredRates[$0] }
        rows = shown
        measuredRates = measured
        return Changes(shown: Set(shown.map { ActivityID(rawValue: $0.id) }),
                       updated: Set(updated.map { ActivityID(rawValue: $0.id) }), measured: measuredChanged)
    }

    /// The kernel measured `rate` (nil: no more) for activity `id`, of the system service's own callers; returns
    /// whether it changed.
    mutating func measured(rate: UInt64?, for id: ActivityID) -> Bool {
        guard measuredRates[id] != rate else { return false }
        measuredRates[id] = rate
        return true
    }

    func row(_ id: ActivityID) -> ActivityDetails? {
        rows.first { $0.id == id.rawValue }
    }
}
