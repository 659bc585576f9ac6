#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DBusKit
import NetworkActivityClient
import ProgramSupport

@main
enum TrayCommand {
    static func main() {
        let options = TrayOptions.commandLine.parseOrExit(
            onto: TrayOptions(), summary: TrayOptions.summary, description: TrayOptions.description,
            version: PackageVersion.current)
        StandardErrorLogging.bootstrap(level: options.logLevel)
        let logger = Logger(label: "netactivity-tray")
        do {
            try run(options, logger: logger)
        } catch {
            logger.critical("\(error)")
            exit(1)
        }
    }

    /// Runs until the bus goes away, which it throws.
    private static func run(_ options: TrayOptions, logger: Logger) throws {
        // The library follows the indicator on a connection and a thread of its own; the tray's objects are
        // served on this thread's connection, with the tray's timers at the end of each turn.
        let client = try NetworkActivityClient(bus: .session)
        let connection = try Connection(bus: .session)
        let loop = EventLoop(connection: connection)
        let tray = try ActivityTray(connection: connection, client: client, idleMode: options.idle,
                                    notifyAfter: options.notifyAfter.map { .seconds($0) },
                                    showsPlasmaJobs: options.showsPlasmaJobs, logger: logger)
        let mailbox = StateMailbox()
        loop.watch(fileDescriptor: mailbox.fileDescriptor) {
            let (states, isClosed) = mailbox.take()
            for state in states { tray.show(state) }
            if isClosed { loop.stop() }
        }
        loop.endOfTurn = { tray.fireDueTimers() }
        let following = Task.detached {
            for await state in client.indicatorStates() { mailbox.post(state) }
            mailbox.finish()
        }
        defer { following.cancel() }
        try loop.run()
        // Stopped: the library's connection to the bus was lost.
        throw DBusError(.disconnected, "the connection to the bus was lost")
    }
}
