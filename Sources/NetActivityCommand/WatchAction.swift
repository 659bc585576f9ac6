// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import DBusKit
import Localization
import NetworkActivityClient

/// What `watch` does once its command line is read, by swift-argument-parser's `WatchCommand` or by
/// `PlainInvocation`: a line for the state now and one for each change, until the bus goes away or the reader does.
struct WatchAction: Equatable {
    var bus: NetworkActivityClient.Bus
    var format: WatchFormat
    var showIdle: Bool

    func run() async throws(ExitCode) {
        // A panel that stops its module, or a person's Ctrl-C, ends it as a program that finished.
        TerminationSignals.exitWhenOneComes()
        // Every format is read by a program (a panel, a script): its words and numbers never change with the
        // language.
        Language.speakToPrograms()
        let client = try await reportingFailure { () async throws(NetworkActivityError) in
            try NetworkActivityClient(bus: bus)
        }
        var lastLine: String?
        for await state in client.indicatorStates() {
            let line = format.render(state, showsIdle: showIdle)
            guard line != lastLine else { continue }
            lastLine = line
            // The reader went away.
            guard printLine(line) else { throw ExitCode.failure }
        }
        // The states end only when the bus goes away.
        printError("\(NetworkActivityError.disconnected(message: "the connection to the bus was lost"))")
        throw ExitCode.failure
    }
}
