// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import NetworkActivityClient

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show whether the indicator is visible and every active activity.",
        discussion: """
            For each activity: its id, age, time left for a timed one, the owner's process id and application \
            where the bus tells them, the owner's bus name, how far it is (percent, bytes moved and in all, rate), \
            whether it can be stopped ("yes", or "stopping" once asked; "paused" for an app whose network is \
            paused) and the label; above them, whether apps' \
            traffic is counted. --json prints one object with the keys active-count, activities, traffic (counting, \
            off or unavailable), traffic-reason and visible (every key of the JSON is in kebab-case; active_count \
            and traffic_reason, their names before, stay beside them); each activity is its record as the service's \
            GetActivities gives it: id, label, owner, started and deadline (microseconds since the Unix epoch, 0 \
            for none), user, process (0 when unknown), system, cancellable, cancel-requested, and when known app, \
            percent, done, total, rate, received, sent, source and paused (an app's measured traffic).
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
