// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import NetworkActivityClient

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print the indicator's state now and a line for each change, for panels and scripts.",
        discussion: """
            Runs until interrupted. While the service is not running the state is idle; when it starts again, \
            watch reads its state again. It never starts the service itself. It exits with status 1 when the \
            bus goes away.

            Formats: plain prints `active COUNT` or `idle COUNT`; json prints {"activities", "count", "labels", \
            "percent", "running", "visible"}, with every activity's record as GetActivities gives it; waybar \
            prints the JSON of a custom module with "return-type": "json" (text, tooltip with a line per \
            activity, class, alt and percentage); polybar prints text and i3blocks the JSON of a block with \
            format=json. In waybar, polybar and i3blocks the module shows `⇅ COUNT` while the indicator does, and \
            hides otherwise; with --show-idle it shows `⇅ 0` in grey (waybar: the class idle) instead. When the \
            activities tell how far they are, every format but json adds the overall percent after the count \
            (`⇅ 2 · 45 %`): the bytes moved of all bytes when every activity has a total, otherwise the mean of \
            the known percents. While an activity is being stopped, waybar's class is stopping.
            """)

    @OptionGroup var busOptions: BusOptions

    @Option(help: "How to print each state.")
    var format: WatchFormat = .plain

    @Flag(help: "In waybar, polybar and i3blocks: keep the module on screen while idle, in grey, instead of hiding it.")
    var showIdle = false

    var action: WatchAction { WatchAction(bus: busOptions.bus, format: format, showIdle: showIdle) }

    func run() async throws { try await action.run() }
}
