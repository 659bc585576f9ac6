import DesktopIndicator
import NetworkActivityClient

/// How `netactivity history` prints the history.
enum HistoryReport {
    static let empty = "no finished activities"

    static func table(_ entries: [HistoryEntry]) -> String {
        guard !entries.isEmpty else { return empty }
        let rows = [["ENDED", "APP", "LABEL", "MOVED", "RAN", "OUTCOME"]] + entries.map { entry in
            [
                LocalTime.dateAndClock(entry.endedAt),
                entry.activity.applicationName ?? entry.activity.source ?? "-",
                entry.activity.label.isEmpty ? "-" : ActivitySummary.displayed(entry.activity.label),
                entry.activity.done.map { ByteAmount.text($0) } ?? "-",
                StatusReport.format(entry.duration),
                entry.outcomeText,
            ]
        }
        return TextTable.lines(rows).joined(separator: "\n")
    }

    static func json(_ entries: [HistoryEntry]) -> String {
        encodeJSON(entries.map { entry in
            let activity = entry.activity
            return EntryJSON(
                id: activity.id.rawValue, label: activity.label, owner: activity.owner, started: activity.startedAt,
                ended: entry.endedAt, outcome: entry.outcome.rawValue, deadline: activity.deadline,
                user: activity.user.flatMap { $0 == UInt32.max ? nil : $0 }, process: activity.ownerProcessID,
                app: activity.application, source: activity.source, percent: activity.percent, done: activity.done,
                total: activity.total, rate: activity.rate, cancellable: activity.isCancellable,
                cancelRequested: activity.isCancelRequested)
        })
    }

    private struct EntryJSON: Encodable {
        let id: UInt32
        let label: String
        let owner: String
        let started: UInt64
        let ended: UInt64
        let outcome: String
        let deadline: UInt64?
        let user: UInt32?
        let process: UInt32?
        let app: String?
        let source: String?
        let percent: UInt32?
        let done: UInt64?
        let total: UInt64?
        let rate: UInt64?
        let cancellable: Bool
        let cancelRequested: Bool
    }
}
