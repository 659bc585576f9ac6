// SPDX-License-Identifier: Apache-2.0
import DesktopIndicator
import NetworkActivityClient
import ProgramSupport

/// How `netactivity history` prints the history.
enum HistoryReport {
    static let empty = "no finished activities"

    static func table(_ entries: [HistoryEntry]) -> String {
        guard !entries.isEmpty else { return empty }
        let rows = [["ENDED", "APP", "LABEL", "MOVED", "RAN", "OUTCOME"]] + entries.map { entry in
            [
                LocalTime.dateAndClock(entry.endedAt),
                entry.activity.applicationName ?? entry.activity.source?.rawValue ?? "-",
                entry.activity.label.isEmpty ? "-" : ActivitySummary.displayed(entry.activity.label),
                entry.activity.done.map { ByteAmount.text($0) } ?? "-",
                StatusReport.format(entry.duration),
                entry.outcomeText,
            ]
        }
        return TextTable.lines(rows).joined(separator: "\n")
    }

    /// Each entry's record as `GetHistory` gives it: an activity's keys with `ended` and `outcome`.
    static func json(_ entries: [HistoryEntry]) -> String {
        JSONValue.array(entries.map(\.activity.record.json)).text
    }
}
