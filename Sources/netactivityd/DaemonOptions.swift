import CommandLineOptions
import DBusKit
import Logging
import NetworkActivity
import NetworkActivityService

/// netactivityd's command line (`CommandLineOptions`, not swift-argument-parser: docs/performance.md).
struct DaemonOptions {
    var system = false
    var address: String?
    var showDelay = 0.5
    var hideDelay = 0.2
    var minVisible = 0.5
    var maxPerCaller = 1024
    var maxPerUser = 4096
    var maxTotal = 65536
    var maxTimeout: UInt32 = 86_400
    var replace = false
    var noSystem = false
    var logLevel: Logger.Level = .info

    var configuration: ServiceConfiguration {
        ServiceConfiguration(
            bus: address.map(Connection.Bus.address) ?? (system ? .system : .session),
            delays: VisibilityDelays(show: .seconds(showDelay), hide: .seconds(hideDelay),
                                     minimumVisible: .seconds(minVisible)),
            limits: ActivityLimits(perCaller: maxPerCaller, perUser: maxPerUser, total: maxTotal,
                                   maximumTimeoutSeconds: maxTimeout),
            replace: replace, followsSystemService: !system && !noSystem)
    }
}

extension DaemonOptions {
    private static let secondsRange = "0 to 86400 seconds"
    private static let countRange = "a whole number from 1"

    static let commandLine = CommandLineOptions<DaemonOptions>(program: "netactivityd", options: [
        .flag("--system", help: "Use the system bus instead of the session bus.") { $0.system = true },
        .value("--address", "ADDRESS", takes: "a bus address",
               help: "Use the bus at this address, e.g. unix:path=/run/user/1000/bus.") { $0.address = $1; return true },
        .value("--show-delay", "SECONDS", takes: secondsRange,
               help: "Seconds of uninterrupted activity before the indicator shows (default 0.5).") {
            assign(parseSeconds($1), to: &$0.showDelay)
        },
        .value("--hide-delay", "SECONDS", takes: secondsRange,
               help: "Seconds with no activity before the indicator hides (default 0.2).") {
            assign(parseSeconds($1), to: &$0.hideDelay)
        },
        .value("--min-visible", "SECONDS", takes: secondsRange,
               help: "Seconds the indicator stays at least, once shown (default 0.5).") {
            assign(parseSeconds($1), to: &$0.minVisible)
        },
        .value("--max-per-caller", "COUNT", takes: countRange,
               help: "Live activities one connection may hold (default 1024).") {
            assign(parseCount($1), to: &$0.maxPerCaller)
        },
        .value("--max-per-user", "COUNT", takes: countRange,
               help: "Live activities one Unix user may hold, from all its connections, timed ones included (default 4096).") {
            assign(parseCount($1), to: &$0.maxPerUser)
        },
        .value("--max-total", "COUNT", takes: countRange,
               help: "Live activities of all callers together (default 65536).") {
            assign(parseCount($1), to: &$0.maxTotal)
        },
        .value("--max-timeout", "SECONDS", takes: "a whole number of seconds from 1 to 86400",
               help: "The longest a timed activity (BeginWithTimeout) may last (default 86400).") {
            assign(parseCount($1).flatMap { $0 <= 86_400 ? UInt32($0) : nil }, to: &$0.maxTimeout)
        },
        .flag("--no-system", help: "On the session bus, do not count the system bus's service's activities too.") {
            $0.noSystem = true
        },
        .flag("--replace", help: "Take the name over from a running instance (which allows it).") { $0.replace = true },
        .value("--log-level", "LEVEL", takes: "trace, debug, info, notice, warning, error or critical",
               help: "How much to log to stderr: trace, debug, info, notice, warning, error or critical (default info).") {
            assign(Logger.Level(rawValue: $1), to: &$0.logLevel)
        },
    ])

    /// What `--help` says above the options.
    static let summary = "counts network activities of many programs and tells panels when to show one indicator."
    static let description = """
        Owns org.example.NetworkActivity on the session bus (or the one chosen below) and serves
        /org/example/NetworkActivity. SIGTERM or SIGINT hide the indicator, release the name and exit 0;
        losing the bus exits 1.
        """

    static func validate(_ options: DaemonOptions) throws(UsageError) {
        if options.system, options.address != nil { throw UsageError("--system and --address exclude each other") }
    }
}

private func parseSeconds(_ text: String) -> Double? {
    Double(text).flatMap { (0...86_400).contains($0) ? $0 : nil }
}

private func parseCount(_ text: String) -> Int? {
    Int(text).flatMap { $0 >= 1 ? $0 : nil }
}

private func assign<Value>(_ value: Value?, to target: inout Value) -> Bool {
    guard let value else { return false }
    target = value
    return true
}
