import ArgumentParser
import DBusKit
import Logging
import NetworkActivity
import NetworkActivityService

@main
struct NetActivityDaemon: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "netactivityd",
        abstract: "Counts network activities of many programs and tells panels when to show one indicator.",
        discussion: """
            Owns org.example.NetworkActivity on the session bus (or the one chosen below) and serves \
            /org/example/NetworkActivity. SIGTERM or SIGINT hide the indicator, release the name and exit 0; \
            losing the bus exits 1.
            """)

    @Flag(help: "Use the system bus instead of the session bus.")
    var system = false

    @Option(help: ArgumentHelp("Use the bus at this address, e.g. unix:path=/run/user/1000/bus.", valueName: "address"))
    var address: String?

    @Option(help: ArgumentHelp("Seconds of uninterrupted activity before the indicator shows.", valueName: "seconds"))
    var showDelay: Double = 0.5

    @Option(help: ArgumentHelp("Seconds with no activity before the indicator hides.", valueName: "seconds"))
    var hideDelay: Double = 0.2

    @Option(help: ArgumentHelp("Seconds the indicator stays at least, once shown.", valueName: "seconds"))
    var minVisible: Double = 0.5

    @Option(help: ArgumentHelp("Live activities one connection may hold.", valueName: "count"))
    var maxPerCaller: Int = 1024

    @Option(help: ArgumentHelp("Live activities of all callers together.", valueName: "count"))
    var maxTotal: Int = 65536

    @Flag(help: "Take the name over from a running instance (which allows it).")
    var replace = false

    @Option(help: ArgumentHelp("How much to log to stderr.", valueName: "level"))
    var logLevel: Logger.Level = .info

    func validate() throws {
        if system, address != nil { throw ValidationError("--system and --address exclude each other.") }
        for (flag, seconds) in [("--show-delay", showDelay), ("--hide-delay", hideDelay), ("--min-visible", minVisible)]
        where !(0...86_400).contains(seconds) {
            throw ValidationError("\(flag) takes 0 to 86400 seconds.")
        }
        if maxPerCaller < 1 || maxTotal < 1 { throw ValidationError("--max-per-caller and --max-total must be at least 1.") }
    }

    func run() throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "netactivityd")
        let configuration = ServiceConfiguration(
            bus: address.map(Connection.Bus.address) ?? (system ? .system : .session),
            delays: VisibilityDelays(show: .seconds(showDelay), hide: .seconds(hideDelay),
                                     minimumVisible: .seconds(minVisible)),
            limits: ActivityLimits(perCaller: maxPerCaller, total: maxTotal),
            replace: replace)
        let service: NetworkActivityService
        do {
            service = try NetworkActivityService(configuration: configuration, logger: logger)
        } catch {
            logger.critical("\(error)")
            throw ExitCode.failure
        }
        let status = service.run()
        if status != 0 { throw ExitCode(status) }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
