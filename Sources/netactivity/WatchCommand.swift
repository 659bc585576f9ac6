import ArgumentParser
import NetworkActivityClient

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print the indicator's state now and a line for each change, for panels and scripts.",
        discussion: """
            Runs until interrupted. While the service is not running the state is idle; when it starts again, \
            watch reads its state again. It never starts the service itself. It exits with status 1 when the \
            bus goes away.

            Formats: plain prints `active COUNT` or `idle COUNT`; json prints {"count", "labels", "running", \
            "visible"}; waybar prints the JSON of a custom module with "return-type": "json" (text, tooltip, \
            class and alt); polybar and i3blocks print `⇅ COUNT` while the indicator shows and an empty line, \
            which hides the module, while it does not (tail = true, interval=persist).
            """)

    @OptionGroup var busOptions: BusOptions

    @Option(help: "How to print each state.")
    var format: WatchFormat = .plain

    func run() throws {
        let monitor = try reportingFailure { () throws(NetworkActivityError) in
            try NetworkActivityMonitor(bus: busOptions.bus, readsLabels: format.showsLabels)
        }
        var lastLine: String?
        var readerLeft = false
        try reportingFailure { () throws(NetworkActivityError) in
            try monitor.run { state in
                let line = format.render(state)
                guard line != lastLine else { return }
                lastLine = line
                if !printLine(line) {
                    readerLeft = true
                    monitor.stop()
                }
            }
        }
        if readerLeft { throw ExitCode.failure }
    }
}
