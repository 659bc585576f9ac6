// SPDX-License-Identifier: Apache-2.0
public import NetworkActivityClient
public import ProgramSupport

/// Notifications that draw an activity's progress as a bar (the hint `value`, which dunst, mako, swaync and
/// xfce4-notifyd draw): one notification per activity with progress, updated in place at most once every
/// `interval`, and replaced at the end by the activity's "finished" line.
public struct ProgressNotifications: Sendable {
    public static let interval: Duration = .seconds(1)

    /// What to tell the notification server.
    public enum Step: Sendable, Equatable {
        /// Show the activity's progress, in place of its notification when it has one.
        case progress(ActivityStatus)
        /// The activity ended: its notification says so, in place.
        case finished(ActivityStatus, endedAt: UInt64)
    }

    private struct Shown: Sendable {
        var activity: ActivityStatus
        /// What the notification says now: its percent and whether it offers Stop.
        var percent: UInt32
        var offersStop: Bool
        var pacing = ChangePacing(interval: ProgressNotifications.interval)
    }

    private var shown: [ActivityID: Shown] = [:]

    public init() {}

    /// The steps due for `activities` at `now` (`wallClock` for the finished lines), and when the next falls due.
    public mutating func follow(
        _ activities: [ActivityStatus], at now: MonotonicTime, wallClock: UInt64
    ) -> (steps: [Step], next: MonotonicTime?) {
        var steps: [Step] = []
        var next: MonotonicTime?
        let live = Dictionary(activities.map { ($0.id, $0) }) { first, _ in first }
        for (id, entry) in shown.sorted(by: { $0.key < $1.key }) where live[id] == nil {
            steps.append(.finished(entry.activity, endedAt: wallClock))
            shown[id] = nil
        }
        for activity in activities {
            guard let percent = OverallProgress.percent(of: [activity]) else { continue }
            let offersStop = activity.isCancellable && !activity.isCancelRequested
            if let entry = shown[activity.id] {
                guard entry.percent != percent || entry.offersStop != offersStop else {
                    shown[activity.id]?.activity = activity
                    continue
                }
                if let due = entry.pacing.nextAllowed, now < due {
                    shown[activity.id]?.activity = activity
                    next = next.map { min($0, due) } ?? due
                    continue
                }
            }
            var sent = Shown(activity: activity, percent: percent, offersStop: offersStop)
            sent.pacing.announced(at: now)
            shown[activity.id] = sent
            steps.append(.progress(activity))
        }
        return (steps, next)
    }
}
