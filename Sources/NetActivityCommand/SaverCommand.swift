// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Localization
import NetworkActivityClient

struct SaverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "saver",
        abstract: "Turn your data saver on or off, or say whether it is on.",
        discussion: """
            While the data saver is on, every app of yours on a metered network (NetworkManager's Metered yes \
            or guess-yes) is paused there, but those your rules allow (`netactivity limit APP --metered allow`) \
            or slow (`--metered RATE`); leaving the metered network lets them go on. It is kept across \
            restarts. Without an argument, prints on or off, as scripts read it.
            """)

    @OptionGroup var busOptions: BusOptions

    enum Setting: String, ExpressibleByArgument, CaseIterable {
        case on, off
    }

    @Argument(help: ArgumentHelp("Turn it on or off.", valueName: "on|off"))
    var setting: Setting?

    func run() async throws {
        try await reportingFailure { () async throws(NetworkActivityError) in
            let client = try busOptions.connect()
            if let setting {
                try await client.setSaver(setting == .on)
            } else {
                print(try await client.saverIsOn() ? Setting.on.rawValue : Setting.off.rawValue)
            }
        }
    }
}
