// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Localization
import NetworkActivityClient

struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show the activities that finished, and how: newest first.",
        discussion: """
            One line per activity: when it ended, the application, the label, the amount moved, how long it ran \
            and the outcome: finished, stopped (it ended after someone asked it to stop), quit (its program left \
            without ending it), timed out or reset. The service keeps the last 100 of each user, across its \
            restarts; root sees every user's. --json prints one array with each entry's record as the service's \
            GetHistory gives it: the keys of status --json's activities, and ended (microseconds since the Unix \
            epoch) and outcome (ended, stopped, left, expired, reset). --clear forgets this user's entries and says \
            how many.
            """)

    @OptionGroup var busOptions: BusOptions

    @Flag(help: "Print one JSON array instead of a table.")
    var json = false

    @Option(help: ArgumentHelp("Show at most this many.", valueName: "count"))
    var limit: Int?

    @Flag(help: "Forget this user's entries instead of showing them.")
    var clear = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError(localized("--limit takes a whole number from 1.")) }
        if clear, limit != nil { throw ValidationError(localized("--clear and --limit exclude each other.")) }
    }

    func run() async throws {
        let client = try reportingFailure { () throws(NetworkActivityError) in try busOptions.connect() }
        if clear {
            let cleared = try await reportingFailure { () async throws(NetworkActivityError) in
                try await client.clearHistory()
            }
            print(json ? "{\"cleared\":\(cleared)}"
                  : localizedPlural("cleared %d entry", "cleared %d entries", count: Int(cleared)))
            return
        }
        let entries = try await reportingFailure { () async throws(NetworkActivityError) in
            try await client.history(limit: limit)
        }
        print(json ? HistoryReport.json(entries) : HistoryReport.table(entries))
    }
}
