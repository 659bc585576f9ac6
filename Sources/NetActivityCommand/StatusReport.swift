// SPDX-License-Identifier: Apache-2.0
import DesktopIndicator
import Localization
import NetworkActivityClient
import NetworkActivityInterface
import ProgramSupport

/// How `netactivity status` prints a status.
enum StatusReport {
    static func table(_ status: ServiceStatus) -> String {
        var lines = [
            localized("visible: %s", status.isVisible ? localized("yes") : localized("no")),
            localized("active: %d", status.activeCount),
        ]
        if let traffic = status.traffic {
            lines.append(localized("traffic: %s", trafficText(traffic, reason: status.trafficReason ?? "")))
        }
        guard !status.activities.isEmpty else { return lines.joined(separator: "\n") }
        // TRANSLATORS: the headings of `netactivity status`'s columns: AGE is how long an activity has been going, LEFT the time before its timeout, STOP whether it can be stopped.
        let headings = [localized("ID"), localized("AGE"), localized("LEFT"), localized("PID"), localized("APP"),
                        localized("OWNER"), localized("PROGRESS"), localized("STOP"), localized("LABEL")]
        let rows = [headings]
            + status.activities.map { activity in
                [
                    activity.id.description,
                    format(activity.age(at: status.takenAt)),
                    activity.timeLeft(at: status.takenAt).map(format) ?? "-",
                    activity.processID.map(String.init) ?? "-",
                    activity.applicationName ?? "-",
                    owner(of: activity),
                    progress(of: activity),
                    activity.isPaused == true ? localized("paused")
                        : activity.isCancelRequested ? localized("stopping") : activity.isCancellable ? localized("yes") : "-",
                    activity.label,
                ]
            }
        lines.append("")
        lines += TextTable.lines(rows)
        return lines.joined(separator: "\n")
    }

    /// `{"active-count":…,"activities":[…],"visible":…}`, each activity its record as `GetActivities` gives it.
    /// Keys are in kebab-case, as the records' own (`cancel-requested`, `private-to`); `active_count` and
    /// `traffic_reason`, from before that was the rule, stay beside their new names for the scripts that read them.
    static func json(_ status: ServiceStatus) -> String {
        let activeCount = JSONValue.unsigned(UInt64(status.activeCount))
        let trafficReason = status.trafficReason.map(JSONValue.string) ?? .null
        return JSONValue.object([
            "active-count": activeCount,
            "active_count": activeCount,
            "activities": .array(status.activities.map(\.record.json)),
            "traffic": status.traffic.map(JSONValue.string) ?? .null,
            "traffic-reason": trafficReason,
            "traffic_reason": trafficReason,
            "visible": .bool(status.isVisible),
        ]).text
    }

    /// The service's `Traffic` as people read it: "counting", or "off (why)"; the reason is the service's own
    /// words (`TrafficReason`), as in its log.
    static func trafficText(_ traffic: String, reason: String) -> String {
        if traffic == TrafficCounting.counting.rawValue { return localized("counting") }
        // TRANSLATORS: measured traffic is not shown, and why (the reason stays in English): "off (--traffic is not given)".
        return localized("off (%s)", reason.isEmpty ? traffic : reason)
    }

    /// Who began an activity; for a source's, the source and the connection that spoke for it:
    /// `packagekit :1.7`, `launcher :1.42`; for measured traffic, `traffic` (its owner is a cgroup's path).
    static func owner(of activity: ActivityStatus) -> String {
        guard let source = activity.source?.rawValue else { return activity.owner }
        if activity.source == .traffic { return source }
        let speaker = activity.owner.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
        return speaker.isEmpty ? source : "\(source) \(speaker)"
    }

    /// How far an activity is, as people read it: `45% 1.2/8.0 MB 3.2 MB/s`; `-` when nothing is known.
    static func progress(of activity: ActivityStatus) -> String {
        var parts: [String] = []
        // TRANSLATORS: a percent done, in a table's column: "45%".
        if let percent = activity.percent { parts.append(localized("%d%%", percent)) }
        if let done = activity.done {
            parts.append(activity.total.map { "\(ByteAmount.text(done))/\(ByteAmount.text($0))" } ?? ByteAmount.text(done))
        }
        if let rate = activity.rate { parts.append(ByteAmount.rate(rate)) }
        if let limit = activity.limitText { parts.append(limit) }
        return parts.isEmpty ? "-" : parts.joined(separator: " ")
    }

    /// A duration as people read it: `42s`, `3m05s`, `2h10m`.
    static func format(_ duration: Duration) -> String {
        let total = max(0, duration.components.seconds)
        switch total {
        case ..<60: return "\(total)s"
        case ..<3600: return "\(total / 60)m\(twoDigits(total % 60))s"
        default: return "\(total / 3600)h\(twoDigits(total / 60 % 60))m"
        }
    }

    private static func twoDigits(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
