// SPDX-License-Identifier: Apache-2.0
import Localization
public import NetworkActivityClient

/// The notification for activities that ended after lasting long: "backup finished after 12 min", "backup
/// finished: 1.2 GB in 6 min" when the amount moved is known, or for several at once, "3 activities finished" with
/// one line each.
public struct FinishedActivities: Sendable, Equatable {
    /// Plain text.
    public let summary: String
    /// Plain text, one line per activity when there are several; escape it for hosts that read markup.
    public let body: String

    /// - Parameters:
    ///   - activities: the activities as they were last seen, in order.
    ///   - time: when they were seen to end, in microseconds since the Unix epoch.
    public init(_ activities: [ActivityStatus], endedAt time: UInt64) {
        let lines = activities.map { activity in
            let title = activity.title
            let duration = ElapsedTime.coarse(activity.age(at: time))
            guard let done = activity.done, done > 0 else { return localized("%s finished after %s", title, duration) }
            return localized("%s finished: %s in %s", title, ByteAmount.text(done), duration)
        }
        if lines.count == 1 {
            summary = lines[0]
            body = ""
        } else {
            summary = localizedPlural("%d activity finished", "%d activities finished", count: lines.count)
            body = lines.joined(separator: "\n")
        }
    }
}
