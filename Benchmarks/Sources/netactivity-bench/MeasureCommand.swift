// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Foundation
import ServiceHarness

/// The default subcommand: the figures of docs/performance.md.
struct MeasureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract: "Measures netactivityd on a private bus: calls, signals, cleanup, memory and start-up.",
        discussion: """
            Starts a dbus-daemon of its own and the release build's netactivityd (delays 0), runs every \
            scenario from connections of its own, and prints a table. Times are also given in round trips of the \
            bus driver's own GetId, measured in the same run, so that runs on different machines compare.
            """)

    @Option(help: ArgumentHelp("The netactivityd to measure (default: the release build's).", valueName: "path"))
    var daemon: String?

    @Option(help: ArgumentHelp("A command to run the daemon under, e.g. \"valgrind --tool=callgrind\".",
                               valueName: "command"))
    var daemonWrapper: String?

    @Option(help: ArgumentHelp("Seconds each rate measurement runs.", valueName: "seconds"))
    var duration: Double = 3

    @Option(help: ArgumentHelp("Connections calling at once in the concurrent measurement.", valueName: "count"))
    var connections: Int = 4

    @Option(help: ArgumentHelp("Show-and-hide cycles timed for the signal latency.", valueName: "count"))
    var signalCycles: Int = 1000

    @Option(help: ArgumentHelp("Activities of the client that disconnects in the cleanup measurement.", valueName: "count"))
    var cleanupActivities: Int = 100

    @Option(help: ArgumentHelp("Times the cleanup is measured.", valueName: "count"))
    var cleanupRepetitions: Int = 30

    @Option(help: ArgumentHelp("Calls of the client that never reads its replies.", valueName: "count"))
    var unreadCalls: Int = 10000

    @Option(help: ArgumentHelp("Connections that hold activities in the memory measurement.", valueName: "count"))
    var clients: Int = 1000

    @Option(help: ArgumentHelp("Activities each of those connections holds.", valueName: "count"))
    var perClient: Int = 10

    @Flag(help: "Run the daemon without a state directory (by default it keeps one on a tmpfs, as on a desktop).")
    var noState = false

    @Option(help: ArgumentHelp("Activities to take over in the restart measurement.", valueName: "count"))
    var restoreActivities: Int = 10000

    @Flag(help: "Print the figures as JSON.")
    var json = false

    func validate() throws {
        guard duration > 0, duration <= 3600 else { throw ValidationError("--duration takes 0 to 3600 seconds.") }
        for (flag, count) in [("--connections", connections), ("--signal-cycles", signalCycles),
                              ("--cleanup-activities", cleanupActivities), ("--cleanup-repetitions", cleanupRepetitions),
                              ("--clients", clients), ("--per-client", perClient),
                              ("--unread-calls", unreadCalls), ("--restore-activities", restoreActivities)]
        where count < 1 {
            throw ValidationError("\(flag) must be at least 1.")
        }
    }

    func run() throws {
        let executable = try DaemonExecutable.find(daemon).path
        let bus = try PrivateBus()
        let wrapper = daemonWrapper.map { $0.split(separator: " ").map(String.init) } ?? []
        // Every client of the benchmark is one Unix user, whose quota must hold the crowd.
        let quota = DaemonExecutable.accepts("--max-per-user", URL(fileURLWithPath: executable))
            ? ["--max-per-user", "\(max(clients * perClient + 100, 10_100))"] : []
        let keepsState = !noState && DaemonExecutable.accepts("--state-dir", URL(fileURLWithPath: executable))
        let stateDirectory = keepsState ? try StateDirectory.make() : nil
        defer { if let stateDirectory { try? FileManager.default.removeItem(at: stateDirectory) } }
        let daemon = try DaemonProcess(bus: bus, arguments: DaemonProcess.noDelays + quota
                                           + (stateDirectory.map { ["--state-dir", $0.path] } ?? []),
                                       executable: URL(fileURLWithPath: executable), wrapper: wrapper,
                                       startTimeout: .seconds(wrapper.isEmpty ? 10 : 120))
        let idle = try daemon.residentKiB
        let measure = Measurements(bus: bus, daemon: daemon, duration: .milliseconds(Int64(duration * 1000)))

        let yardstick = try measure.busDriverRoundTrip()
        var report = BenchReport(yardstick: yardstick)
        report.time("startup_ms", "start-up until the name is owned", daemon.startUpTime, unit: .milliseconds)
        report.memory("rss_idle_kib", "daemon RSS, idle", idle)
        report.time("getid_rtt_p50_us", "bus driver GetId round trip p50", yardstick.p50)
        report.time("getid_rtt_p99_us", "bus driver GetId round trip p99", yardstick.p99)
        report.rate("getid_calls_per_s", "bus driver GetId calls", yardstick.perSecond ?? 0)

        let toggling = try measure.sequentialPairs(holdingOne: false)
        report.rate("seq_pairs_per_s", "Begin+End pairs, 1 connection, indicator on and off each", toggling.pairsPerSecond)
        report.time("seq_call_p50_us", "  call latency p50", toggling.calls.p50)
        report.time("seq_call_p99_us", "  call latency p99", toggling.calls.p99)
        report.cpu("seq_cpu_us_per_pair", "  daemon CPU per pair", toggling.cpuPerPair)

        let held = try measure.sequentialPairs(holdingOne: true)
        report.rate("seqheld_pairs_per_s", "Begin+End pairs, 1 connection, 1 activity held", held.pairsPerSecond)
        report.time("seqheld_call_p50_us", "  call latency p50", held.calls.p50)
        report.time("seqheld_call_p99_us", "  call latency p99", held.calls.p99)
        report.cpu("seqheld_cpu_us_per_pair", "  daemon CPU per pair", held.cpuPerPair)

        let firstCalls = try measure.firstCallsOfNewConnections()
        report.time("first_call_p50_us", "first Begin of a new connection (a dbus-send) p50", firstCalls.p50)
        report.time("first_call_p99_us", "first Begin of a new connection (a dbus-send) p99", firstCalls.p99)

        let concurrent = try measure.concurrentPairs(connections: connections)
        report.rate("conc_pairs_per_s", "Begin+End pairs, \(connections) connections at once", concurrent.pairsPerSecond)
        report.cpu("conc_cpu_us_per_pair", "  daemon CPU per pair", concurrent.cpuPerPair)

        let signals = try measure.signalLatency(cycles: signalCycles)
        report.time("sig_on_p50_us", "Begin to VisibilityChanged(true) p50", signals.on.p50)
        report.time("sig_on_p99_us", "Begin to VisibilityChanged(true) p99", signals.on.p99)
        report.time("sig_off_p50_us", "End to VisibilityChanged(false) p50", signals.off.p50)
        report.time("sig_off_p99_us", "End to VisibilityChanged(false) p99", signals.off.p99)

        let cleanup = try measure.cleanupLatency(activities: cleanupActivities, repetitions: cleanupRepetitions)
        report.time("cleanup_p50_us", "client with \(cleanupActivities) activities gone to hidden, p50", cleanup.p50)
        report.time("cleanup_p99_us", "client with \(cleanupActivities) activities gone to hidden, p99", cleanup.p99)

        let unread = try measure.pairsBesideUnreadReplies(calls: unreadCalls)
        report.time("unread_call_p50_us", "seqheld call p50 beside \(unreadCalls) unread replies", unread.calls.p50)
        report.time("unread_call_p99_us", "seqheld call p99 beside \(unreadCalls) unread replies", unread.calls.p99)

        let progress = try measure.progressReports(connections: 100)
        report.rate("progress_calls_per_s", "SetProgress calls, 100 connections at once", progress.callsPerSecond)
        report.cpu("progress_cpu_us_per_call", "  daemon CPU per call", progress.cpuPerCall)
        report.rate("progress_signals_per_s", "  ActivitiesChanged a second meanwhile", progress.signalsPerSecond)

        let listing = try measure.getActivities(held: 10_000)
        report.time("get_activities_p50_us", "GetActivities, 10000 activities held, p50", listing.calls.p50)
        report.time("get_activities_p99_us", "GetActivities, 10000 activities held, p99", listing.calls.p99)
        report.cpu("get_activities_cpu_us_per_call", "  daemon CPU per call", listing.cpuPerCall)

        let load = try measure.heldActivities(clients: clients, perClient: perClient)
        let heldCount = clients * perClient
        report.memory("rss_held_kib", "daemon RSS, \(heldCount) activities of \(clients) clients held", load.residentKiB)
        report.rate("loaded_pairs_per_s", "Begin+End pairs while they are held", load.pairs.pairsPerSecond)
        report.cpu("loaded_cpu_us_per_pair", "  daemon CPU per pair", load.pairs.cpuPerPair)
        report.time("teardown_ms", "all \(clients) clients gone to hidden", load.teardown, unit: .milliseconds)
        report.memory("rss_after_kib", "daemon RSS, after they left", load.residentAfterKiB)

        if keepsState, wrapper.isEmpty {
            let restore = try RestoreMeasurement.measure(
                count: restoreActivities, executable: URL(fileURLWithPath: executable),
                arguments: DaemonProcess.noDelays + quota)
            guard restore.restored == restoreActivities else {
                throw BenchFailure("the restarted daemon took over \(restore.restored) of \(restoreActivities)")
            }
            report.time("restore_startup_ms", "start-up with \(restoreActivities) to take over, until the name is owned",
                        restore.nameOwned, unit: .milliseconds)
            report.time("restore_first_answer_ms", "  until the first answer, all taken over", restore.firstAnswer,
                        unit: .milliseconds)
            report.memory("restore_rss_kib", "  daemon RSS then", restore.residentKiB)
        }

        if json {
            print(try report.json(context: [
                "date": ISO8601DateFormatter().string(from: Date()),
                "daemon": executable,
                "options": ["duration_s": duration, "connections": connections, "signal_cycles": signalCycles,
                            "cleanup_activities": cleanupActivities, "cleanup_repetitions": cleanupRepetitions,
                            "clients": clients, "per_client": perClient, "unread_calls": unreadCalls],
            ]), terminator: "")
        } else {
            print(report.table(title: "netactivity-bench \(ISO8601DateFormatter().string(from: Date())): \(executable)"),
                  terminator: "")
        }
    }
}
