import ArgumentParser
import DBusKit
import IndicatorPresentation
import Logging
import NetworkActivityClient
import PackageVersion
import StandardErrorLogging

@main
struct TrayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "netactivity-tray",
        abstract: "Show the network-activity indicator as a tray icon (StatusNotifierItem) on the session bus.",
        discussion: """
            Works with every panel that hosts StatusNotifierItems: KDE Plasma, GNOME with the AppIndicator \
            extension, xfce4-panel, lxqt-panel, waybar's tray, gtk-sni-tray. It follows the service's Visible \
            property, so the service's anti-flicker delays apply; the tooltip names the active activities, and a \
            click shows them in a notification, and a right click opens a menu of them with their ages. Once in \
            the tray, the icon stays at least a second. It waits quietly for a panel and for the service, and carries on \
            when either restarts. It never starts the service itself. It exits with status 1 when the bus goes \
            away.
            """,
        version: PackageVersion.current)

    @Option(help: """
        While nothing is active: hide leaves the tray (every panel hides the icon); passive stays with the status \
        Passive (some panels hide it, others show the idle look); show keeps the idle look in the tray.
        """)
    var idle: IdleMode = .hide

    @Option(help: ArgumentHelp("""
        When an activity that lasted at least this many seconds ends, say so in a desktop notification. Off by \
        default.
        """, valueName: "seconds"))
    var notifyAfter: UInt?

    @Option(help: """
        The least important messages to print on standard error: trace, debug, info, notice, warning, error or \
        critical.
        """)
    var logLevel: Logger.Level = .notice

    func run() throws {
        StandardErrorLogging.bootstrap(level: logLevel)
        let logger = Logger(label: "netactivity-tray")
        // The library follows the indicator on a connection and a thread of its own; the tray's objects are
        // served on this thread's connection, with the tray's timers at the end of each turn.
        let client = try NetworkActivityClient(bus: .session)
        let connection = try Connection(bus: .session)
        let loop = EventLoop(connection: connection)
        let tray = try ActivityTray(connection: connection, client: client, idleMode: idle,
                                    notifyAfter: notifyAfter.map { .seconds($0) }, logger: logger)
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

extension IdleMode: ExpressibleByArgument {}
extension Logger.Level: @retroactive ExpressibleByArgument {}
