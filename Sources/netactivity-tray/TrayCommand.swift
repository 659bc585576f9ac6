// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DBusKit
import Localization
import NetworkActivityClient
import ProgramSupport

@main
enum TrayCommand {
    static func main() {
        // The session's language, for the menu, the tooltip and the notifications; the log stays English.
        Language.followThePerson()
        let (options, logger) = TrayOptions.startProgram(named: "netactivity-tray")
        do {
            try run(options, logger: logger)
        } catch {
            logger.critical("\(error)")
            exit(1)
        }
    }

    /// Runs until SIGTERM or SIGINT, after which it returns, or until the bus goes away, which it throws.
    private static func run(_ options: TrayOptions, logger: Logger) throws {
        // Before the connection: libdbus may start no thread, but nothing here should inherit the signals unblocked.
        let signals = try TerminationSignals()
        // One connection and one thread: the tray follows the service and serves its objects on this loop, and
        // shows each state at the end of the loop's turn, with its timers.
        let connection = try Connection(bus: .session)
        let loop = EventLoop(connection: connection)
        loop.watch(fileDescriptor: signals.fileDescriptor) { [unowned loop] in
            guard let signal = signals.take() else { return }
            logger.info("stopping on signal \(signal)")
            loop.stop()
        }
        let tray = try ActivityTray(connection: connection, idleMode: options.idle,
                                    notifyAfter: options.notifyAfter.map { .seconds($0) },
                                    showsPlasmaJobs: options.showsPlasmaJobs,
                                    showsDockProgress: options.showsDockProgress,
                                    dockStateFile: stateFile("tray-dock-progress"),
                                    showsProgressNotifications: options.showsProgressNotifications,
                                    meteredWarning: options.meteredWarning,
                                    warningsFile: stateFile("tray-metered-warnings"),
                                    planNoticesFile: stateFile("tray-plan-notices"), logger: logger)
        let follower = try IndicatorFollower(on: connection) { tray.show($0) }
        loop.endOfTurn = {
            follower.flush()
            return tray.fireDueTimers()
        }
        try loop.run()
        tray.stop()
    }

    /// Where the tray keeps what its next run needs (the apps shown on docks, for a run after a crash; the metered
    /// warnings shown today): beside the service's state in the session's runtime directory; nil without one.
    private static func stateFile(_ name: String) -> String? {
        guard let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), runtime.hasPrefix("/") else {
            return nil
        }
        let folder = runtime + "/netactivity"
        mkdir(folder, 0o700)
        return folder + "/" + name
    }
}
