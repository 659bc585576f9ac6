import DBusKit
import Logging
import NetworkActivity
import NetworkActivityService

/// netactivityd's command line.
///
/// Parsed here rather than with swift-argument-parser, which the `netactivity` command uses: ArgumentParser links
/// FoundationEssentials and reads the command through reflection, and that alone cost the daemon 3.6 MB of
/// resident memory, most of its 8 MB budget (docs/performance.md). A service's flags are few and fixed.
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

    /// What the command line asks for.
    enum Request {
        case run(DaemonOptions)
        case help
        case version
    }

    /// Reads `--flag`, `--option value` and `--option=value`, in any order; a later option overrides an earlier one.
    static func parse(_ arguments: ArraySlice<String>) throws(UsageError) -> Request {
        var options = DaemonOptions()
        var remaining = arguments
        while let argument = remaining.popFirst() {
            if argument == "-h" || argument == "--help" { return .help }
            if argument == "--version" { return .version }
            let (name, inlineValue) = split(argument)
            guard let option = Self.options.first(where: { $0.name == name }) else {
                throw UsageError("unknown option '\(argument)'")
            }
            switch option.kind {
            case .flag(let set):
                guard inlineValue == nil else { throw UsageError("\(name) takes no value") }
                set(&options)
            case .value(let placeholder, let takes, let set):
                guard let value = inlineValue ?? remaining.popFirst() else {
                    throw UsageError("\(name) needs a value: \(name) \(placeholder)")
                }
                guard set(&options, value) else { throw UsageError("\(name) takes \(takes), not '\(value)'") }
            }
        }
        if options.system, options.address != nil { throw UsageError("--system and --address exclude each other") }
        return .run(options)
    }

    private static func split(_ argument: String) -> (name: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    static var help: String {
        let rows = options.map { option -> (String, String) in
            switch option.kind {
            case .flag: (option.name, option.help)
            case .value(let placeholder, _, _): ("\(option.name) \(placeholder)", option.help)
            }
        } + [("--version", "Show the version and exit."), ("-h, --help", "Show this help and exit.")]
        let width = rows.map(\.0.count).max() ?? 0
        return """
            netactivityd: counts network activities of many programs and tells panels when to show one indicator.

            Owns org.example.NetworkActivity on the session bus (or the one chosen below) and serves
            /org/example/NetworkActivity. SIGTERM or SIGINT hide the indicator, release the name and exit 0;
            losing the bus exits 1.

            Usage: netactivityd [options]

            Options:

            """
            + rows.map { "  \($0.0.padding(to: width))  \($0.1)" }.joined(separator: "\n") + "\n"
    }
}

/// A command line the daemon cannot use; printed with the usage line, exit status 64 (`EX_USAGE`).
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

private struct Option: Sendable {
    enum Kind: Sendable {
        case flag(@Sendable (inout DaemonOptions) -> Void)
        /// `set` returns false for a value it cannot use; the error then says what the option `takes`.
        case value(placeholder: String, takes: String, set: @Sendable (inout DaemonOptions, String) -> Bool)
    }

    let name: String
    let kind: Kind
    let help: String
}

extension DaemonOptions {
    private static let secondsRange = "0 to 86400 seconds"
    private static let countRange = "a whole number from 1"

    private static let options: [Option] = [
        Option(name: "--system", kind: .flag { $0.system = true },
               help: "Use the system bus instead of the session bus."),
        Option(name: "--address", kind: .value(placeholder: "ADDRESS", takes: "a bus address") { $0.address = $1; return true },
               help: "Use the bus at this address, e.g. unix:path=/run/user/1000/bus."),
        Option(name: "--show-delay", kind: .value(placeholder: "SECONDS", takes: secondsRange) { assign(parseSeconds($1), to: &$0.showDelay) },
               help: "Seconds of uninterrupted activity before the indicator shows (default 0.5)."),
        Option(name: "--hide-delay", kind: .value(placeholder: "SECONDS", takes: secondsRange) { assign(parseSeconds($1), to: &$0.hideDelay) },
               help: "Seconds with no activity before the indicator hides (default 0.2)."),
        Option(name: "--min-visible", kind: .value(placeholder: "SECONDS", takes: secondsRange) { assign(parseSeconds($1), to: &$0.minVisible) },
               help: "Seconds the indicator stays at least, once shown (default 0.5)."),
        Option(name: "--max-per-caller", kind: .value(placeholder: "COUNT", takes: countRange) { assign(parseCount($1), to: &$0.maxPerCaller) },
               help: "Live activities one connection may hold (default 1024)."),
        Option(name: "--max-per-user", kind: .value(placeholder: "COUNT", takes: countRange) { assign(parseCount($1), to: &$0.maxPerUser) },
               help: "Live activities one Unix user may hold, from all its connections, timed ones included (default 4096)."),
        Option(name: "--max-total", kind: .value(placeholder: "COUNT", takes: countRange) { assign(parseCount($1), to: &$0.maxTotal) },
               help: "Live activities of all callers together (default 65536)."),
        Option(name: "--max-timeout", kind: .value(placeholder: "SECONDS", takes: "a whole number of seconds from 1 to 86400") {
                   assign(parseCount($1).flatMap { $0 <= 86_400 ? UInt32($0) : nil }, to: &$0.maxTimeout)
               },
               help: "The longest a timed activity (BeginWithTimeout) may last (default 86400)."),
        Option(name: "--no-system", kind: .flag { $0.noSystem = true },
               help: "On the session bus, do not count the system bus's service's activities too."),
        Option(name: "--replace", kind: .flag { $0.replace = true },
               help: "Take the name over from a running instance (which allows it)."),
        Option(name: "--log-level", kind: .value(placeholder: "LEVEL", takes: "trace, debug, info, notice, warning, error or critical") {
                   assign(Logger.Level(rawValue: $1), to: &$0.logLevel)
               },
               help: "How much to log to stderr: trace, debug, info, notice, warning, error or critical (default info)."),
    ]
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

extension String {
    fileprivate func padding(to width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}
