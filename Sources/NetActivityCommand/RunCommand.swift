// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Localization
import NetworkActivityClient

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a command as one network activity.",
        discussion: """
            Begins an activity, runs the command, ends the activity when the command exits, and exits with the \
            command's status (128+N when signal N killed it). SIGINT, SIGTERM and SIGHUP sent to netactivity \
            are passed on to the command. If netactivity itself is killed, the service ends the activity by \
            itself. If the service cannot be reached, the command runs all the same after one warning, unless \
            --strict is given. With --notify, a desktop notification tells when the command ends.

            The command finds the activity's id in NETACTIVITY_ID, to report its progress with `netactivity \
            progress "$NETACTIVITY_ID" PERCENT`. The activity can be stopped from the panel or with `netactivity \
            cancel ID`: the command then gets SIGTERM, and SIGKILL if it is still running --kill-after seconds later; \
            netactivity says so once on stderr and exits with the command's status. --no-cancel keeps it from being \
            offered for stopping.
            """)

    @OptionGroup var busOptions: BusOptions

    @Option(help: "What the activity is, for people; the command's name by default.")
    var label: String?

    @Flag(help: "Fail instead of running the command when the activity cannot begin.")
    var strict = false

    @Flag(help: """
        When the command ends, say in a desktop notification what ran, how long, and how it ended (an urgent one \
        when it failed). Nothing is shown when no notification server runs.
        """)
    var notify = false

    @Flag(name: .customLong("no-cancel"), help: "Do not let the activity be stopped from the panel or with `cancel`.")
    var noCancel = false

    @Option(help: ArgumentHelp("Seconds between SIGTERM and SIGKILL when the activity is stopped.",
                               valueName: "seconds"))
    var killAfter: UInt32 = RunAction.defaultKillAfter

    @Argument(parsing: .postTerminator, help: ArgumentHelp("The command and its arguments, after --.",
                                                           valueName: "command"))
    var command: [String] = []

    func validate() throws {
        guard !command.isEmpty else { throw ValidationError(localized("Missing the command to run, e.g. netactivity run -- curl -O URL.")) }
    }

    var action: RunAction {
        RunAction(bus: busOptions.bus, label: label, strict: strict, notify: notify, cancellable: !noCancel,
                  killAfter: killAfter, command: command)
    }

    func run() async throws { try action.run() }
}
