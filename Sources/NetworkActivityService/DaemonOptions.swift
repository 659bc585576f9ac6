// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
public import ProgramSupport
import DBusKit
public import NetworkActivity

/// netactivityd's command line (`CommandLineOptions`, not swift-argument-parser: docs/performance.md). Here
/// rather than in the program, so that a fuzz target can read command lines with it (docs/reliability.md).
public struct DaemonOptions: ProgramOptions {
    public var system = false
    public var address: String?
    public var showDelay = 0.5
    public var hideDelay = 0.2
    public var minVisible = 0.5
    public var maxPerCaller = 1024
    public var maxPerUser = 4096
    public var maxTotal = 65536
    public var maxTimeout: UInt32 = 86_400
    public var replace = false
    public var noSystem = false
    public var stateDirectory: String?
    public var logLevel: Logger.Level = .info
    /// In the order of `ActivitySource.followedOnBuses`, each once.
    public var noSources: [ActivitySource] = []
    public var launcherApps = LauncherEntries.browsers
    public var history = 100
    public var traffic = TrafficOptions()
    public var usageDirectory: String?

    public init() {}

    public var configuration: ServiceConfiguration {
        ServiceConfiguration(
            bus: address.map(Connection.Bus.address) ?? (system ? .system : .session),
            delays: VisibilityDelays(show: .seconds(showDelay), hide: .seconds(hideDelay),
                                     minimumVisible: .seconds(minVisible)),
            limits: ActivityLimits(perCaller: maxPerCaller, perUser: maxPerUser, total: maxTotal,
                                   maximumTimeoutSeconds: maxTimeout),
            replace: replace, followsSystemService: !system && !noSystem, state: stateLocation,
            sources: system ? [] : Set(ActivitySource.followedOnBuses).subtracting(noSources),
            launcherApplications: launcherApps, historyLimit: history, traffic: trafficWithUsage)
    }

    /// `--usage-dir`; else `--state-dir`; else systemd's `StateDirectory=` (`$STATE_DIRECTORY`); else
    /// /var/lib/netactivity: a place that outlives reboots, unlike the activities'.
    private var trafficWithUsage: TrafficOptions {
        var traffic = traffic
        traffic.usageDirectory = usageDirectory ?? stateDirectory
            ?? getenv("STATE_DIRECTORY").map { String(cString: $0).split(separator: ":").first.map(String.init) ?? "" }
            .flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? Self.systemUsageDirectory
        return traffic
    }

    static let systemUsageDirectory = "/var/lib/netactivity"

    /// `--state-dir`; else the session's runtime directory, or the system's with `--system`. A bus given by
    /// `--address` is neither: two services on two such buses must not share one file.
    private var stateLocation: StateLocation {
        if let stateDirectory { return .directory(stateDirectory) }
        if address != nil { return .nowhere(reason: "--address names a bus of its own; --state-dir would say where") }
        if system { return .directory(Self.systemStateDirectory) }
        guard let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), runtime.hasPrefix("/") else {
            return .nowhere(reason: "XDG_RUNTIME_DIR is not set; --state-dir would say where")
        }
        return .directory(runtime + "/netactivity")
    }

    static let systemStateDirectory = "/run/netactivity"
}

extension DaemonOptions {
    private static let secondsRange = "0 to 86400 seconds"
    private static let countRange = "a whole number from 1"

    private typealias Option = CommandLineOptions<DaemonOptions>.Option

    /// An option of `SECONDS`, 0 to 86400.
    private static func seconds(_ name: String, _ help: String,
                                set: @escaping @Sendable (inout DaemonOptions, Double) -> Void) -> Option {
        .value(name, "SECONDS", takes: secondsRange, help: help, parse: parseSeconds, set: set)
    }

    /// An option of `COUNT`, from 1.
    private static func count(_ name: String, _ help: String,
                              set: @escaping @Sendable (inout DaemonOptions, Int) -> Void) -> Option {
        .value(name, "COUNT", takes: countRange, help: help, parse: parseCount, set: set)
    }

    public static let commandLine = CommandLineOptions<DaemonOptions>(program: "netactivityd", options: [
        .flag("--system", help: "Use the system bus instead of the session bus.") { $0.system = true },
        .value("--address", "ADDRESS", takes: "a bus address",
               help: "Use the bus at this address, e.g. unix:path=/run/user/1000/bus.",
               parse: { $0 }) { $0.address = $1 },
        seconds("--show-delay", "Seconds of uninterrupted activity before the indicator shows (default 0.5).") {
            $0.showDelay = $1
        },
        seconds("--hide-delay", "Seconds with no activity before the indicator hides (default 0.2).") {
            $0.hideDelay = $1
        },
        seconds("--min-visible", "Seconds the indicator stays at least, once shown (default 0.5).") {
            $0.minVisible = $1
        },
        count("--max-per-caller", "Live activities one connection may hold (default 1024).") { $0.maxPerCaller = $1 },
        count("--max-per-user", """
            Live activities one Unix user may hold, from all its connections, timed ones included (default 4096).
            """) { $0.maxPerUser = $1 },
        count("--max-total", "Live activities of all callers together (default 65536).") { $0.maxTotal = $1 },
        .value("--max-timeout", "SECONDS", takes: "a whole number of seconds from 1 to 86400",
               help: "The longest a timed activity (BeginWithTimeout) may last (default 86400).",
               parse: parseMaximumTimeout) { $0.maxTimeout = $1 },
        .flag("--no-system", help: "On the session bus, do not count the system bus's service's activities too.") {
            $0.noSystem = true
        },
        .value("--no-source", "NAME", takes: ActivitySource.followedOnBuses.map(\.rawValue).joined(separator: " or "),
               help: """
                   Do not follow this source of activities: \(ActivitySource.packagekit.rawValue) (PackageKit's \
                   downloads) or \(ActivitySource.launcher.rawValue) (apps' progress on their launcher); may be given \
                   twice.
                   """,
               parse: { ActivitySource(rawValue: $0).flatMap { ActivitySource.followedOnBuses.contains($0) ? $0 : nil } }) {
                   options, source in
                   options.noSources = ActivitySource.followedOnBuses.filter { options.noSources.contains($0) || $0 == source }
               },
        .value("--launcher-apps", "IDS", takes: "desktop file ids, separated by commas",
               help: "The apps whose progress on their launcher shows as activities (default: Chromium, Chrome, Brave, Edge and Vivaldi, as packages and Flatpaks).",
               parse: parseDesktopIDs) { $0.launcherApps = $1 },
        .value("--history", "COUNT", takes: "a whole number from 0 to \(ActivityHistory.maximumLimit)",
               help: "Finished activities to keep per user, for GetHistory and `netactivity history` (default 100; 0 keeps none).",
               parse: parseHistoryLimit) { $0.history = $1 },
        .value("--state-dir", "DIR", takes: "a directory",
               help: "Keep the activities across restarts here (default $XDG_RUNTIME_DIR/netactivity, /run/netactivity with --system).",
               parse: { $0.isEmpty ? nil : $0 }) { $0.stateDirectory = $1 },
        .flag("--traffic", help: """
            Show what apps move on the network as activities: with --system, count it in the kernel (needs root); \
            on the session bus, show this user's apps and the machine's services, starting the system service.
            """) { $0.traffic.isOn = true },
        .value("--traffic-threshold", "BYTES", takes: "a whole number of bytes a second from 1",
               help: "Bytes a second (received and sent) from which an app's traffic counts (default 32768).",
               parse: { UInt64($0).flatMap { $0 >= 1 ? $0 : nil } }) { $0.traffic.threshold = $1 },
        .flag("--traffic-loopback", help: "Count traffic on the loopback device (lo) too.") {
            $0.traffic.countsLoopback = true
        },
        .value("--usage-days", "DAYS", takes: "a whole number of days from 1 to 3660",
               help: "Days of the data each app used to keep, today's included (default 90).",
               parse: { Int($0).flatMap { (1...3660).contains($0) ? $0 : nil } }) { $0.traffic.usageDays = $1 },
        .value("--usage-dir", "DIR", takes: "a directory",
               help: "Keep the data each app used here (default $STATE_DIRECTORY, /var/lib/netactivity).",
               parse: { $0.isEmpty ? nil : $0 }) { $0.usageDirectory = $1 },
        .value("--traffic-apps", "IDS", takes: "application ids, separated by commas",
               help: "Show the traffic of these apps only (desktop file ids, commands or unit names).",
               parse: parseApplicationIDs) { $0.traffic.choice.only = $1 },
        .value("--traffic-ignore", "IDS", takes: "application ids, separated by commas",
               help: "Never show the traffic of these apps (desktop file ids, commands or unit names).",
               parse: parseApplicationIDs) { $0.traffic.choice.ignored = $1 },
        .flag("--replace", help: "Take the name over from a running instance (which allows it).") { $0.replace = true },
        .value("--log-level", "LEVEL", takes: "trace, debug, info, notice, warning, error or critical",
               help: "How much to log to stderr: trace, debug, info, notice, warning, error or critical (default info).",
               parse: Logger.Level.init(rawValue:)) { $0.logLevel = $1 },
    ])

    /// What `--help` says above the options.
    public static let summary = "counts network activities of many programs and tells panels when to show one indicator."
    public static let description = """
        Owns org.example.NetworkActivity on the session bus (or the one chosen below) and serves
        /org/example/NetworkActivity. SIGTERM or SIGINT hide the indicator, release the name and exit 0;
        losing the bus exits 1.
        """

    public static func validate(_ options: DaemonOptions) throws(UsageError) {
        if options.system, options.address != nil { throw UsageError("--system and --address exclude each other") }
    }
}

private func parseSeconds(_ text: String) -> Double? {
    Double(text).flatMap { (0...86_400).contains($0) ? $0 : nil }
}

private func parseDesktopIDs(_ text: String) -> [String]? {
    let ids = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    return ids.allSatisfy { !$0.isEmpty && !$0.contains("/") && !$0.hasSuffix(".desktop") } ? ids : nil
}

private func parseApplicationIDs(_ text: String) -> [String]? {
    let ids = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    return ids.allSatisfy { !$0.isEmpty && !$0.contains("/") } ? ids : nil
}

private func parseCount(_ text: String) -> Int? {
    Int(text).flatMap { $0 >= 1 ? $0 : nil }
}

private func parseHistoryLimit(_ text: String) -> Int? {
    Int(text).flatMap { (0...ActivityHistory.maximumLimit).contains($0) ? $0 : nil }
}

private func parseMaximumTimeout(_ text: String) -> UInt32? {
    parseCount(text).flatMap { $0 <= 86_400 ? UInt32($0) : nil }
}
