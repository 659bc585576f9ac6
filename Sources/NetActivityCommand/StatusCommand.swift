import ArgumentParser
import NetworkActivityClient

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show whether the indicator is visible and every active activity.",
        discussion: """
            For each activity: its id, age, time left for a timed one, the owner's process id and command name \
            where the bus tells them, the owner's bus name, how far it is (percent, bytes moved and in all, rate), \
            whether it can be stopped ("yes", or "stopping" once asked) and the label. --json prints one object \
            with the keys visible, active_count and activities; an activity's pid, command, time_left_seconds, \
            percent, done_bytes, total_bytes and rate_bytes_per_second are left out when unknown or not \
            applicable, and cancellable and cancel_requested are always there.
            """)

    @OptionGroup var busOptions: BusOptions

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    func run() async throws {
        let status = try await reportingFailure { () async throws(NetworkActivityError) in
            try await busOptions.connect().status()
        }
        print(json ? StatusReport.json(status) : StatusReport.table(status))
    }
}
