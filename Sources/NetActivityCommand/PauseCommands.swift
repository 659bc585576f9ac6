// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Localization
import NetworkActivityClient

struct PauseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause",
        abstract: "Hold back an app's network: the kernel drops its packets until `netactivity resume`.",
        discussion: """
            For an app whose traffic the system service measures (a row of `status` with paused "no" in --json). \
            Its transfers wait, and go on where they were at resume; loopback is never held back. The pause also \
            ends when the app exits or the system service stops. Only the app's own user and root may pause it, \
            and a machine's service only root. An app is named as `status` shows it (APP or LABEL): every \
            measured activity of it is paused.
            """)

    @OptionGroup var busOptions: BusOptions

    @Argument(help: ArgumentHelp("The activity's id, or the app's name.", valueName: "id|app"))
    var target: String

    func run() async throws {
        try await MeasuredApps.setPaused(true, target, busOptions)
    }
}

struct ResumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "Let a paused app's network through again.",
        discussion: "The same apps and rules as `netactivity pause`.")

    @OptionGroup var busOptions: BusOptions

    @Argument(help: ArgumentHelp("The activity's id, or the app's name.", valueName: "id|app"))
    var target: String

    func run() async throws {
        try await MeasuredApps.setPaused(false, target, busOptions)
    }
}

/// The measured apps that `pause` and `resume` name: an id, or an app by its desktop file id or label.
enum MeasuredApps {
    static func setPaused(_ paused: Bool, _ target: String, _ busOptions: BusOptions) async throws {
        try await reportingFailure { () async throws(NetworkActivityError) in
            let client = try busOptions.connect()
            let ids: [ActivityID]
            if let id = UInt32(target) {
                ids = [ActivityID(rawValue: id)]
            } else {
                ids = try await client.activities().filter { activity in
                    activity.isPausable
                        && (activity.application == target || activity.label.lowercased() == target.lowercased())
                }.map(\.id)
                guard !ids.isEmpty else {
                    throw .unknownActivity(message: localized("no app named %s moves anything on the network now", target))
                }
            }
            for id in ids {
                if paused { try await client.pause(id) } else { try await client.resume(id) }
            }
        }
    }
}
