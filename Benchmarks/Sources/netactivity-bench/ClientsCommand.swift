// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Foundation
import NetworkActivityInterface
import ServiceHarness

/// The programs people run most, as whole processes: `netactivity begin`, `end` and `run -- true` against the
/// `dbus-send` calls that do the same (for `run`, both the Begin alone and a script's Begin, command and End), and
/// `netactivity watch` and `netactivity-tray` while they wait (docs/performance.md).
struct ClientsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clients",
        abstract: "Measures netactivity and netactivity-tray as processes, against dbus-send.",
        discussion: """
            Starts a dbus-daemon and a netactivityd (delays 0) of its own. Each command runs --runs times, \
            alternating with its dbus-send equivalent (for run -- true, also dbus-send's Begin, /bin/true and \
            dbus-send's End one after another, their wall times added): the wall time from spawning it until it \
            is reaped, and its peak resident memory (the kernel's ru_maxrss); the medians are printed. Then \
            netactivity watch and netactivity-tray start, and once they have settled, their resident memory and the \
            CPU ticks they use in --idle seconds; last the tray's memory with 50 activities in its tooltip. Pin it \
            with taskset to compare runs. The programs are the release build's (.build/release under the \
            folder it runs from, or NETACTIVITY_PROGRAMS): bash packaging/build-release.sh.
            """)

    @Option(help: ArgumentHelp("The netactivityd to run (default: the release build's).", valueName: "path"))
    var daemon: String?
    @Option(help: "Times each command runs.") var runs = 20
    @Option(help: "Seconds over which the waiting programs' CPU ticks are counted.") var idle = 10.0
    @Option(help: "Seconds of 50 activities reporting progress 10 times a second each, for the tray and watch.")
    var busy = 10.0
    @Flag(help: "Print the figures as JSON.") var json = false

    func run() throws {
        let bus = try PrivateBus()
        let service = try DaemonProcess(bus: bus, executable: try DaemonExecutable.find(daemon))
        let spawner = Spawner(environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        let command = MeasuredPrograms.program("netactivity").path
        let dbusSend = ["/usr/bin/dbus-send", "--session", "--print-reply", "--dest=org.example.NetworkActivity",
                        "/org/example/NetworkActivity"]

        let client = try RawClient(bus)
        var samples: [String: [Double]] = [:]
        /// Runs the command `arguments()` makes twice, for its wall time and for its peak memory.
        func measure(_ name: String, _ arguments: () throws -> [String]) throws {
            samples["\(name)_wall_ms", default: []].append(try spawner.run(arguments()).wall.seconds * 1000)
            samples["\(name)_peak_rss_kb", default: []].append(Double(try spawner.peakResidentKiB(arguments())))
        }
        // A timed activity of this user, which any of its programs may end.
        func timedActivity() throws -> String { String(try client.beginTimed("bench", seconds: 600)) }
        for _ in 0..<runs {
            try measure("dbus_send_begin") {
                dbusSend + ["org.example.NetworkActivity.BeginWithTimeout", "string:bench", "uint32:600"]
            }
            try measure("dbus_send_end") { dbusSend + ["org.example.NetworkActivity.End", "uint32:\(try timedActivity())"] }
            try measure("netactivity_begin") { [command, "begin", "--timeout", "600", "--label", "bench"] }
            try measure("netactivity_end") { [command, "end", try timedActivity()] }
            try measure("netactivity_run_true") { [command, "run", "--", "/bin/true"] }
            // The same as a script does it with dbus-send: begin, the command, end.
            func script() throws -> [[String]] {
                [dbusSend + ["org.example.NetworkActivity.BeginWithTimeout", "string:bench", "uint32:600"],
                 ["/bin/true"], dbusSend + ["org.example.NetworkActivity.End", "uint32:\(try timedActivity())"]]
            }
            samples["dbus_send_run_true_wall_ms", default: []].append(
                try script().reduce(0) { $0 + (try spawner.run($1).wall.seconds * 1000) })
            samples["dbus_send_run_true_peak_rss_kb", default: []].append(
                Double(try script().map { try spawner.peakResidentKiB($0) }.max() ?? 0))
            // What the begins left behind, so that every run finds the service as the first did.
            _ = try client.call(ServiceMembers.reset.serviceCall())
        }
        var figures = samples.mapValues(median)

        let watch = try spawner.start([command, "watch"])
        let tray = try spawner.start([MeasuredPrograms.program("netactivity-tray").path])
        defer { for process in [watch, tray] { _ = reap(process) } }
        let (watchFigures, trayFigures) = (ProcessFigures(processID: watch), ProcessFigures(processID: tray))
        // Both read the state once and then sleep: a settled process's memory no longer grows.
        try awaitSettled([watchFigures, trayFigures])
        let ticksBefore = (try watchFigures.cpuTicks, try trayFigures.cpuTicks)
        Thread.sleep(forTimeInterval: idle)
        figures["watch_idle_rss_kb"] = Double(try watchFigures.residentKiB)
        figures["watch_idle_ticks"] = Double(try watchFigures.cpuTicks - ticksBefore.0)
        figures["tray_idle_rss_kb"] = Double(try trayFigures.residentKiB)
        figures["tray_idle_ticks"] = Double(try trayFigures.cpuTicks - ticksBefore.1)
        for number in 1...50 { _ = try client.beginTimed("download \(number) of a long list of files", seconds: 600) }
        Thread.sleep(forTimeInterval: 1)
        figures["tray_50_activities_rss_kb"] = Double(try trayFigures.residentKiB)
        for process in [watch, tray] { kill(process, SIGTERM) }
        _ = try client.call(ServiceMembers.reset.serviceCall())
        figures.merge(try BusyTrayMeasurement(bus: bus, client: client, spawner: spawner, activities: 50,
                                              updatesPerSecond: 10, seconds: busy).run()) { $1 }
        _ = service

        if json {
            print(String(decoding: try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys]),
                         as: UTF8.self))
        } else {
            print(ClientsReport(figures: figures, runs: runs, idle: idle).text)
        }
    }
}

/// The text form of the `clients` figures.
struct ClientsReport {
    let figures: [String: Double]
    let runs: Int
    let idle: Double

    var text: String {
        func value(_ key: String) -> Double { figures[key] ?? 0 }
        var lines = ["netactivity-bench clients: medians of \(runs) runs: wall time, peak resident memory"]
        for reference in ["dbus_send_begin", "dbus_send_end", "dbus_send_run_true"] {
            lines.append(reference.padding(toLength: 21, withPad: " ", startingAt: 0)
                         + String(format: "%6.2f ms                              %6.0f KiB",
                                  value("\(reference)_wall_ms"), value("\(reference)_peak_rss_kb")))
        }
        for (ours, reference) in [("netactivity_begin", "dbus_send_begin"), ("netactivity_end", "dbus_send_end"),
                                  ("netactivity_run_true", "dbus_send_begin"),
                                  ("netactivity_run_true", "dbus_send_run_true")] {
            let wall = value("\(ours)_wall_ms"), referenceWall = value("\(reference)_wall_ms")
            let rss = value("\(ours)_peak_rss_kb"), referenceRSS = value("\(reference)_peak_rss_kb")
            let name = ours.padding(toLength: 21, withPad: " ", startingAt: 0)
            lines.append(name + String(format: "%6.2f ms (× %.2f of %@)   %6.0f KiB (%+6.0f KiB)", wall,
                                       wall / referenceWall, reference, rss, rss - referenceRSS))
        }
        lines.append(String(format: "watch idle: %.0f KiB, %.0f ticks in %.0f s", value("watch_idle_rss_kb"),
                            value("watch_idle_ticks"), idle))
        lines.append(String(format: "tray idle:  %.0f KiB, %.0f ticks in %.0f s; with 50 activities %.0f KiB",
                            value("tray_idle_rss_kb"), value("tray_idle_ticks"), idle,
                            value("tray_50_activities_rss_kb")))
        lines.append(String(format: "50 activities reporting progress 10 times a second: ActivitiesChanged %.1f/s",
                            value("busy_activities_changed_per_s")))
        lines.append(String(format: "  tray:  peak %.0f KiB (its own: %.0f KiB, %.0f before), CPU %.1f %%, "
                            + "LayoutUpdated %.1f/s, NewToolTip %.1f/s", value("busy_tray_peak_rss_kb"),
                            value("busy_tray_peak_anonymous_kb"), value("busy_tray_anonymous_before_kb"),
                            value("busy_tray_cpu_percent"),
                            value("busy_tray_layout_updated_per_s"), value("busy_tray_new_tooltip_per_s")))
        lines.append(String(format: "  watch: peak %.0f KiB, CPU %.1f %%, %.1f lines/s",
                            value("busy_watch_peak_rss_kb"),
                            value("busy_watch_cpu_percent"), value("busy_watch_lines_per_s")))
        return lines.joined(separator: "\n")
    }
}

private func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

/// Waits until none of the processes has used a CPU tick for half a second, ten seconds at most: a program just
/// started is still loading and reading the state, and a slow machine takes longer over it.
private func awaitSettled(_ processes: [ProcessFigures]) throws {
    let deadline = ContinuousClock.now + .seconds(10)
    var ticks = try processes.map { try $0.cpuTicks }
    while ContinuousClock.now < deadline {
        Thread.sleep(forTimeInterval: 0.5)
        let now = try processes.map { try $0.cpuTicks }
        if now == ticks { return }
        ticks = now
    }
}
