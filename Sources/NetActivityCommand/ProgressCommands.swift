// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Localization
import NetworkActivityClient

struct ProgressCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "progress",
        abstract: "Say how far an activity is: a percent, or the bytes moved so far and in all.",
        discussion: """
            Any program of the activity's user may, such as the command that `netactivity run` started, which \
            finds the id in NETACTIVITY_ID: netactivity progress "$NETACTIVITY_ID" 40, or netactivity progress \
            "$NETACTIVITY_ID" --done 1048576 --total 8388608. With amounts, the service works out the percent and \
            the rate.
            """)

    @OptionGroup var busOptions: BusOptions

    @Argument(help: "The activity's id.")
    var id: ActivityID

    @Argument(help: ArgumentHelp("How far it is, 0 to 100.", valueName: "percent"))
    var percent: UInt32?

    @Option(help: ArgumentHelp("Bytes moved so far.", valueName: "bytes"))
    var done: UInt64?

    @Option(help: ArgumentHelp("Bytes to move in all, when known.", valueName: "bytes"))
    var total: UInt64?

    func validate() throws {
        switch (percent, done) {
        case (nil, nil): throw ValidationError(localized("Give a percent, or --done BYTES."))
        case (.some, .some): throw ValidationError(localized("Give a percent or --done BYTES, not both."))
        case (.some, nil) where total != nil: throw ValidationError(localized("--total goes with --done."))
        default: break
        }
    }

    func run() async throws {
        try reportingFailure { () throws(NetworkActivityError) in
            let calls = try BlockingActivityCalls(bus: busOptions.bus)
            if let done {
                try calls.setTransfer(id, done: done, total: total)
            } else if let percent {
                try calls.setProgress(id, percent: percent)
            }
        }
    }
}

struct CancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Ask the program that runs an activity to stop it.",
        discussion: """
            The service passes the request on to the program, which stops and ends the activity itself; \
            `netactivity status` shows the activity as stopping meanwhile. Fails with NotCancellable when the \
            program has not said it would stop.
            """)

    @OptionGroup var busOptions: BusOptions

    @Argument(help: "The activity's id.", completion: ActivityIDCompletion.cancellable)
    var id: ActivityID

    func run() async throws {
        try reportingFailure { () throws(NetworkActivityError) in
            try BlockingActivityCalls(bus: busOptions.bus).requestCancel(id)
        }
    }
}
