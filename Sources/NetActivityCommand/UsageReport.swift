// SPDX-License-Identifier: Apache-2.0
import DesktopIndicator
import Localization
import NetworkActivityClient
import ProgramSupport
#if canImport(Glibc)
import Glibc
#endif

/// How `netactivity usage` prints the data each app used: one line per app, then one per network.
enum UsageReport {
    static func table(_ rows: [AppDataUsage]) -> String {
        guard !rows.isEmpty else { return localized("no data used") }
        let total = rows.reduce(UInt64(0)) { ByteCounts.sum($0, $1.total) }
        var apps: [String: (label: String, counts: ByteCounts)] = [:]
        var networks: [String: (metered: Bool, counts: ByteCounts)] = [:]
        for row in rows {
            let counts = ByteCounts(received: row.received, sent: row.sent)
            apps[row.application, default: (row.label, ByteCounts())].counts += counts
            networks[row.network, default: (false, ByteCounts())].counts += counts
            if row.isMetered { networks[row.network]?.metered = true }
        }
        // TRANSLATORS: the headings of `netactivity usage`'s columns, in capitals as command-line tables write them.
        let appHeadings = [localized("APP"), localized("RECEIVED"), localized("SENT"), localized("TOTAL"),
                           localized("SHARE")]
        let appLines = apps.sorted { ($0.value.counts.total, $1.key) > ($1.value.counts.total, $0.key) }
            .map { _, app in
                [app.label, ByteAmount.text(app.counts.received), ByteAmount.text(app.counts.sent),
                 ByteAmount.text(app.counts.total), share(app.counts.total, of: total)]
            }
        let networkHeadings = [localized("NETWORK"), localized("RECEIVED"), localized("SENT"), localized("TOTAL"), ""]
        let networkLines = networks.sorted { ($0.value.counts.total, $1.key) > ($1.value.counts.total, $0.key) }
            .map { name, network in
                [network.metered ? localized("%s (metered)", name) : name, ByteAmount.text(network.counts.received),
                 ByteAmount.text(network.counts.sent), ByteAmount.text(network.counts.total), ""]
            }
        let lines = TextTable.lines([appHeadings] + appLines + [networkHeadings] + networkLines)
            .map { $0.trimmingSuffix(while: { $0 == " " }) }
        // One blank line between the apps and the networks.
        return (lines.prefix(appLines.count + 1) + [""] + lines.dropFirst(appLines.count + 1)).joined(separator: "\n")
    }

    /// The records as `GetUsage` gives them.
    static func json(_ rows: [AppDataUsage]) -> String {
        JSONValue.array(rows.map(\.record.json)).text
    }

    /// A share in whole percent, "<1 %" for a sliver.
    static func share(_ part: UInt64, of whole: UInt64) -> String {
        guard whole > 0 else { return "-" }
        let percent = Double(part) * 100 / Double(whole)
        return percent > 0 && percent < 1 ? localized("<1 %") : localized("%d %%", Int(percent.rounded()))
    }

    /// The first day of the period asked for: this week's Monday, this month's first day, or today, in local time.
    static func firstDay(week: Bool, month: Bool, now: time_t = time(nil)) -> String {
        var seconds = now
        var fields = tm()
        localtime_r(&seconds, &fields)
        if month { fields.tm_mday = 1 } else if week { fields.tm_mday -= (Int32(fields.tm_wday) + 6) % 7 }
        fields.tm_hour = 12
        var normalized = timegm(&fields)
        var day = tm()
        gmtime_r(&normalized, &day)
        return padded(Int(day.tm_year) + 1900, 4) + "-" + padded(Int(day.tm_mon) + 1, 2) + "-"
            + padded(Int(day.tm_mday), 2)
    }

    private static func padded(_ number: Int, _ width: Int) -> String {
        let digits = "\(number)"
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Whether `text` is a day as the service takes it (`UsageDay`): `YYYY-MM-DD`, on the calendar.
    static func isDay(_ text: String) -> Bool {
        UsageDay(text) != nil
    }
}


private extension String {
    func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var text = self
        while let last = text.last, predicate(last) { text.removeLast() }
        return text
    }
}
