// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import NetworkActivityClient

struct BeginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "begin",
        abstract: "Begin a timed activity and print its id.",
        discussion: """
            The activity outlives this command: it lasts until `netactivity end ID`, from any program of the same \
            user, or until its timeout, whichever comes first. For example: id=$(netactivity begin --timeout 600)
            """)

    @OptionGroup var busOptions: BusOptions

    @Option(help: "What the activity is, for people.")
    var label = ""

    @Option(help: ArgumentHelp("Seconds after which the activity ends by itself: 1 to 86400.", valueName: "seconds"))
    var timeout: UInt32

    var action: BeginAction { BeginAction(bus: busOptions.bus, label: label, timeout: timeout) }

    func run() async throws { try action.run() }
}

struct EndCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "end",
        abstract: "End an activity that `netactivity begin` printed the id of.")

    @OptionGroup var busOptions: BusOptions

    @Argument(help: "The activity's id.", completion: ActivityIDCompletion.kind)
    var id: ActivityID

    var action: EndAction { EndAction(bus: busOptions.bus, id: id) }

    func run() async throws { try action.run() }
}

struct ResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "End every activity of every program, and print how many ended.",
        discussion: "A recovery tool. On the system bus only root may use it.")

    @OptionGroup var busOptions: BusOptions

    func run() async throws {
        let ended = try await reportingFailure { () async throws(NetworkActivityError) in
            try await busOptions.connect().reset()
        }
        _ = printLine(String(ended))
    }
}

extension ActivityID: ExpressibleByArgument {}
