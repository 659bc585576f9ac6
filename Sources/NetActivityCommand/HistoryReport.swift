// SPDX-License-Identifier: Apache-2.0
import DesktopIndicator
import Localization
import NetworkActivityClient
import ProgramSupport

/// How `netactivity history` prints the history.
enum HistoryReport {
    static var empty: String { localized("no finished activities") }

    static func table(_ entries: [HistoryEntry]) -> String {
        guard !entries.isEmpty else { return empty }
        // TRANSLATORS: the headings of `netactivity history`'s columns, in capitals as command-line tables write them.
        let headings = [localized("ENDED"), localized("APP"), localized("LABEL"), localized("MOVED"), localized("RAN"),
                        localized("OUTCOME")]
        let rows = [headings] + entries.map { entry in
            [
                LocalFormats.dateAndClock(entry.endedAt),
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
