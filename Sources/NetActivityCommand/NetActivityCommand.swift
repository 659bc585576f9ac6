// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import ProgramSupport

struct NetActivityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "netactivity",
        abstract: "Tells the network-activity service what this desktop does on the network, and shows its state.",
        discussion: """
            Talks to org.example.NetworkActivity on the session bus, or the bus chosen with --system or \
            --address. Errors from the service are printed as one line, its D-Bus error name and message, and \
            the exit status is 1.
            """,
        version: PackageVersion.current,
        subcommands: [
            RunCommand.self, BeginCommand.self, EndCommand.self, ProgressCommand.self, CancelCommand.self,
            PauseCommand.self, ResumeCommand.self, LimitCommand.self, LimitsCommand.self, SaverCommand.self, PlanCommand.self,
            PlansCommand.self, StatusCommand.self, WatchCommand.self, HistoryCommand.self, UsageCommand.self, ResetCommand.self, ShellInitCommand.self,
        ])
}
