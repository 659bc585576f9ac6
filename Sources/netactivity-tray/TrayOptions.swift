// SPDX-License-Identifier: Apache-2.0
import NetworkActivityInterface
import ProgramSupport
import DesktopIndicator

/// netactivity-tray's command line (`CommandLineOptions`, not swift-argument-parser: docs/performance.md).
struct TrayOptions: ProgramOptions {
    var idle = IdleMode.hide
    var notifyAfter: UInt?
    var logLevel = Logger.Level.notice
    var showsPlasmaJobs = true
    var showsDockProgress = true
    var showsProgressNotifications = false
    var meteredWarning: UInt64 = 100_000_000

    static let commandLine = CommandLineOptions<TrayOptions>(program: "netactivity-tray", options: [
        .value("--idle", "MODE", takes: "hide, passive or show",
               help: "While nothing is active: hide leaves the tray (every panel hides the icon); passive stays with "
                   + "the status Passive (some panels hide it, others show the idle look); show keeps the idle look "
                   + "in the tray (default hide).",
               parse: IdleMode.init(rawValue:)) { $0.idle = $1 },
        .value("--notify-after", "SECONDS", takes: "a whole number of seconds",
               help: "When an activity that lasted at least this many seconds ends, say so in a desktop "
                   + "notification (off by default).",
               parse: { UInt($0) }) { $0.notifyAfter = $1 },
        .flag("--no-job-tracker",
              help: "Do not show activities as jobs in KDE Plasma's job tracker (org.kde.JobViewServer), which it "
                  + "otherwise does where Plasma serves one.") { $0.showsPlasmaJobs = false },
        .flag("--progress-notifications",
              help: "Show each activity with progress in a notification with a bar, updated in place, with Stop "
                  + "where it can be stopped: on notification servers that draw bars (dunst, mako, swaync, "
                  + "xfce4-notifyd).") { $0.showsProgressNotifications = true },
        .flag("--no-dock-progress",
              help: "Do not show each application's progress on its icon in docks and task bars "
                  + "(\(LauncherEntryInterface.interface)), which it otherwise does.") { $0.showsDockProgress = false },
        .value("--metered-warning", "BYTES", takes: "a whole number of bytes",
               help: "Warn once a day of an app that has used this many bytes on metered connections today "
                   + "(default 100000000, 100 MB; 0: never).",
               parse: { UInt64($0) }) { $0.meteredWarning = $1 },
        .value("--log-level", "LEVEL", takes: "trace, debug, info, notice, warning, error or critical",
               help: "The least important messages to print on standard error: trace, debug, info, notice, "
                   + "warning, error or critical (default notice).",
               parse: Logger.Level.init(rawValue:)) { $0.logLevel = $1 },
    ])

    /// What `--help` says above the options.
    static let summary = "shows the network-activity indicator as a tray icon (StatusNotifierItem) on the session bus."
    static let description = """
        Works with every panel that hosts StatusNotifierItems: KDE Plasma, GNOME with the AppIndicator extension,
        xfce4-panel, lxqt-panel, waybar's tray, gtk-sni-tray. It follows the service's Visible property, so the
        service's anti-flicker delays apply; the tooltip has a line per activity with how far it is, a click shows
        them in a notification, and a right click opens a menu of them with their progress and ages, and Stop for
        those that can be stopped. In KDE Plasma, activities with progress or that can be stopped also show as
        jobs in Plasma's job tracker. Once in the tray, the icon stays at least a second. It waits quietly for a
        panel and for the service, and carries on when either restarts. It never starts the service itself. It
        exits with status 1 when the bus goes away.
        """
}
