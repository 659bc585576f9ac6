// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Localization
import NetworkActivityClient
#if canImport(Glibc)
import Glibc
#endif

struct UsageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "usage",
        abstract: "Show the data each app used: today, this week, this month, or since a day.",
        discussion: """
            The system service counts what every app receives and sends (netactivityd --system --traffic), per \
            network, and keeps 90 days. One line per app, most first: received, sent, the total and its share; \
            then each network's total, metered ones marked. You see your own apps and the machine's services; \
            root sees everyone's with --system. --json prints one array of the records as the service's GetUsage \
            gives them, one per app, user, network and day: app, label, user, network, metered, received, sent, \
            day, and private-to (the user whose app it was; absent for the machine's services). --clear forgets \
            your own apps' rows (root: all) and says how many.
            """)

    @OptionGroup var busOptions: BusOptions

    @Flag(help: "Today's, since local midnight (the default).")
    var today = false

    @Flag(help: "This week's, since Monday.")
    var week = false

    @Flag(help: "This month's, since its first day.")
    var month = false

    @Option(help: ArgumentHelp("Since this day, as YYYY-MM-DD.", valueName: "date"))
    var since: String?

    @Option(help: ArgumentHelp("Only what moved on this network (as the list names it).", valueName: "name"))
    var network: String?

    @Flag(help: "Only what moved on metered networks.")
    var metered = false

    @Flag(help: "Print one JSON array instead of a table.")
    var json = false

    @Flag(help: "Forget your own apps' data usage instead of showing it.")
    var clear = false

    func validate() throws {
        if [today, week, month, since != nil].filter({ $0 }).count > 1 {
            throw ValidationError(localized("--today, --week, --month and --since exclude each other."))
        }
        if let since, UsageReport.isDay(since) == false {
            throw ValidationError(localized("--since takes a day as YYYY-MM-DD."))
        }
        if clear, today || week || month || since != nil || network != nil || metered {
            throw ValidationError(localized("--clear takes no other choice."))
        }
    }

    func run() async throws {
        let client = try reportingFailure { () throws(NetworkActivityError) in try busOptions.connect() }
        if clear {
            let cleared = try await reportingFailure { () async throws(NetworkActivityError) in
                try await client.clearUsage()
            }
            print(json ? "{\"cleared\":\(cleared)}"
                  : localizedPlural("cleared %d row", "cleared %d rows", count: cleared))
            return
        }
        let first = since ?? UsageReport.firstDay(week: week, month: month)
        let rows = try await reportingFailure { () async throws(NetworkActivityError) in
            // The table sums each app's days: the service sends one row per app and network, not per day.
            try await client.usage(since: first, daily: json)
        }.filter { row in
            (network.map { row.network == $0 } ?? true) && (!metered || row.isMetered)
        }
        print(json ? UsageReport.json(rows) : UsageReport.table(rows))
    }
}
