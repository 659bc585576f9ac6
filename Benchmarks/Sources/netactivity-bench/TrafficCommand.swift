// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Foundation
import NetworkActivity
import NetworkActivityInterface
import ServiceHarness
import TrafficCounters

/// What counting apps' traffic costs (docs/performance.md, "Apps' traffic"): the system service idle with its
/// programs attached; a loopback transfer at full speed with and without them; the service while one app moves
/// 100 MB a second. Needs root, as the counting does.
struct TrafficCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "traffic",
        abstract: "Measures the cost of --traffic: idle, per packet, and while an app moves 100 MB/s.",
        discussion: """
            Runs the release build's netactivityd as the system service (on a private bus) with --traffic. Idle: \
            its CPU ticks and its loop's wake-ups over --idle seconds while no app moves the threshold (nothing \
            else of this benchmark moves anything; other programs of the machine might). Throughput: --rounds \
            triples of --seconds-long TCP transfers on loopback at full speed, one without programs, one with the \
            service and --traffic-loopback (so the transfer is counted and followed), one with the smallest \
            counting program, back to back, each first in turn; the medians of the rounds' ratios. \
            Load: a transfer paced to --rate bytes a second for --busy seconds, from a cgroup named like an app's \
            unit: the service's CPU and wake-ups a second, and whether the app showed. \
            Cost per packet: --rounds transfers of --seconds with the service's programs and as many with the \
            smallest counting program (one lookup and one atomic add, systemd's way), each first in turn, as the \
            kernel times each run (kernel.bpf_stats_enabled, put back after): the medians and their ratio. \
            Flood: one user (4343) makes --flood cgroups, each moving the threshold once; the service's CPU and \
            peak memory meanwhile, and how long another user's app took to show. \
            With --baseline, a previous build's netactivityd takes its turn beside the service's in the throughput \
            and per-packet rounds on loopback: what a change cost, measured in the same run.
            """)

    @Option(help: ArgumentHelp("The netactivityd to measure (default: the release build's).", valueName: "path"))
    var daemon: String?
    @Option(help: ArgumentHelp("A previous build's netactivityd, measured beside it on loopback.", valueName: "path"))
    var baseline: String?
    @Option(help: "Seconds over which the idle service is watched.") var idle = 60.0
    @Option(help: "Pairs of full-speed transfers.") var rounds = 20
    @Option(help: "Seconds of each full-speed transfer.") var seconds = 2.0
    @Option(help: "Seconds of the paced transfer.") var busy = 10.0
    @Option(help: "Bytes a second of the paced transfer.") var rate = 100_000_000.0
    @Option(help: "Cgroups one user makes, each moving the threshold once (0: no flood).") var flood = 2_000
    @Flag(help: "Print the figures as JSON.") var json = false

    func validate() throws {
        guard idle > 0, busy > 0, seconds > 0, rounds >= 1, rate > 0 else {
            throw ValidationError("--idle, --busy, --seconds and --rate take values above 0, --rounds at least 1.")
        }
        guard geteuid() == 0 else { throw ValidationError("counting traffic needs root") }
    }

    func run() throws {
        let executable = try DaemonExecutable.find(daemon)
        let previous = try baseline.map { try DaemonExecutable.find($0) }
        var results: [String: Double] = [:]

        // Idle, counting everything but loopback.
        do {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus, arguments: DaemonProcess.noDelays + ["--traffic"],
                                            executable: executable, systemBus: true)
            try service.awaitLog("counting apps' traffic")
            let figures = service.figures
            try awaitStill(figures)
            let before = (try figures.cpuTicks, try figures.mainThreadContextSwitches)
            Thread.sleep(forTimeInterval: idle)
            results["idle_ticks"] = Double(try figures.cpuTicks - before.0)
            results["idle_wakeups"] = Double(try figures.mainThreadContextSwitches - before.1)
        }

        // Throughput: the same transfer without programs, with the service's and with the smallest counting
        // program (attached the same way), back to back in each round, each first in turn, so that the machine's
        // own changes fall on all three; the ratios of each round's transfers.
        guard let tree = CgroupTree.mounted() else { throw BenchFailure("no cgroup v2 tree is mounted") }
        var without: [Double] = [], with: [Double] = [], ratios: [Double] = [], referenceRatios: [Double] = []
        var baselineRatios: [Double] = [], ratiosToBaseline: [Double] = []
        let variants = ["without", "service", "reference"] + (previous == nil ? [] : ["baseline"])
        for round in 0..<rounds {
            var speeds: [String: Double] = [:]
            for step in variants.indices {
                let variant = variants[(round + step) % variants.count]
                let speed = { Double(try LoopbackTransfer.run(seconds: seconds)) / seconds }
                switch variant {
                case "without": speeds[variant] = try speed()
                case "reference": speeds[variant] = try TrafficCost.reference(cgroupRoot: tree.root, speed).1
                default:
                    speeds[variant] = try whileCounting(variant == "baseline" ? previous! : executable) { _, _ in
                        try speed()
                    }
                }
            }
            without.append(speeds["without"]!)
            with.append(speeds["service"]!)
            ratios.append(speeds["service"]! / speeds["without"]!)
            referenceRatios.append(speeds["service"]! / speeds["reference"]!)
            if let old = speeds["baseline"] {
                baselineRatios.append(old / speeds["without"]!)
                ratiosToBaseline.append(speeds["service"]! / old)
            }
        }
        results["full_speed_without_bytes_per_s"] = median(without)
        results["full_speed_with_bytes_per_s"] = median(with)
        results["full_speed_ratio"] = median(ratios)
        results["full_speed_ratio_to_reference"] = median(referenceRatios)
        if previous != nil {
            results["full_speed_baseline_ratio"] = median(baselineRatios)
            results["full_speed_ratio_to_baseline"] = median(ratiosToBaseline)
        }

        if flood > 0 { try measureFlood(executable, into: &results) }
        // Per packet, as the kernel times each run: ours against the smallest counting program (and the baseline).
        var ours: [Double] = [], reference: [Double] = [], old: [Double] = []
        try TrafficCost.withStatistics {
            let turns = ["service", "reference"] + (previous == nil ? [] : ["baseline"])
            for round in 0..<rounds {
                for step in turns.indices {
                    let turn = turns[(round + step) % turns.count]
                    guard turn != "reference" else {
                        reference.append(try TrafficCost.reference(cgroupRoot: tree.root) {
                            try LoopbackTransfer.run(seconds: seconds)
                        }.0)
                        continue
                    }
                    let cost = try whileCounting(turn == "baseline" ? previous! : executable) { _, service in
                        let ids = programIDs(in: service.log)
                        let before = try TrafficCost.statistics(ofPrograms: ids)
                        _ = try LoopbackTransfer.run(seconds: seconds)
                        return TrafficCost.perRun(before, try TrafficCost.statistics(ofPrograms: ids))
                    }
                    if turn == "baseline" { old.append(cost) } else { ours.append(cost) }
                }
            }
        }
        results["per_packet_ns"] = median(ours)
        results["reference_per_packet_ns"] = median(reference)
        results["per_packet_ratio"] = median(ours) / median(reference)
        if previous != nil {
            results["baseline_per_packet_ns"] = median(old)
            results["per_packet_ratio_to_baseline"] = median(ours) / median(old)
        }
        try measureHolding(executable, tree: tree, into: &results)
        try measureLimitedDownload(executable, into: &results)

        // One app at 100 MB/s, from a cgroup named like its unit.
        try whileCounting(executable) { bus, service in
            let figures = service.figures
            try awaitStill(figures)
            let cgroup = try BenchCgroup(unitName: "app-bench-bench\\x2dtransfer-1.scope")
            let before = (try figures.cpuTicks, try figures.mainThreadContextSwitches)
            let started = Date()
            let moved = try cgroup.whileInside { try LoopbackTransfer.run(seconds: busy, bytesPerSecond: rate) }
            let elapsed = Date().timeIntervalSince(started)
            let after = (try figures.cpuTicks, try figures.mainThreadContextSwitches)
            let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
            results["load_bytes_per_s"] = Double(moved) / elapsed
            results["load_cpu_percent"] = Double(after.0 - before.0) / ticksPerSecond / elapsed * 100
            results["load_wakeups_per_s"] = Double(after.1 - before.1) / elapsed
            // Still shown: it ends 3 s after the transfer.
            let shown = try RawClient(bus).details()
            results["load_app_shown"] = shown.contains { $0.application == "bench-transfer" && $0.source == .traffic } ? 1 : 0
        }

        if json {
            print(String(decoding: try JSONSerialization.data(withJSONObject: results, options: [.sortedKeys]),
                         as: UTF8.self))
        } else {
            print(String(format: """
                idle with --traffic (%.0f s): %.0f CPU ticks, %.0f wake-ups
                loopback at full speed: %.0f MB/s without the programs, %.0f MB/s with them: %.3f× (%.3f× of the smallest counting program's)
                one app at %.0f MB/s (%.0f MB/s moved): service CPU %.2f %%, %.1f wake-ups/s, shown: %@
                per packet: %.1f ns with the service's programs, %.1f ns with the smallest counting program: %.2f×
                per packet across a veth pair: %.1f ns with no app held, %.1f ns with one paused beside it, %.1f ns limited, %.1f ns with the smallest counting program: %.2f×, %.2f× and %.2f×
                a download limited to 1 MB/s across a veth pair (%.2f MB/s moved): programs %.3f %% of a core, service CPU %.2f %%, the machine %.1f %% of a core; paced by its sender instead: programs %.3f %%, the machine %.1f %%
                flood of %.0f cgroups (%.0f wake-ups): service CPU %.2f %% of a core over %.1f s, peak %.1f MB; another user's app shown after %.1f s
                """, idle, results["idle_ticks"] ?? 0, results["idle_wakeups"] ?? 0,
                (results["full_speed_without_bytes_per_s"] ?? 0) / 1e6, (results["full_speed_with_bytes_per_s"] ?? 0) / 1e6,
                results["full_speed_ratio"] ?? 0, results["full_speed_ratio_to_reference"] ?? 0, rate / 1e6, (results["load_bytes_per_s"] ?? 0) / 1e6,
                results["load_cpu_percent"] ?? 0, results["load_wakeups_per_s"] ?? 0,
                results["load_app_shown"] == 1 ? "yes" : "no",
                results["per_packet_ns"] ?? 0, results["reference_per_packet_ns"] ?? 0, results["per_packet_ratio"] ?? 0,
                results["veth_per_packet_ns"] ?? 0, results["veth_paused_per_packet_ns"] ?? 0,
                results["veth_limited_per_packet_ns"] ?? 0,
                results["veth_reference_per_packet_ns"] ?? 0, results["veth_per_packet_ratio"] ?? 0,
                results["veth_paused_per_packet_ratio"] ?? 0, results["veth_limited_per_packet_ratio"] ?? 0,
                (results["limited_download_bytes_per_s"] ?? 0) / 1e6, results["limited_download_programs_percent"] ?? 0,
                results["limited_download_service_cpu_percent"] ?? 0, results["limited_download_machine_percent"] ?? 0,
                results["paced_download_programs_percent"] ?? 0, results["paced_download_machine_percent"] ?? 0,
                Double(flood), results["flood_wake_ups"] ?? 0, results["flood_cpu_percent"] ?? 0, results["flood_seconds"] ?? 0,
                (results["flood_peak_kib"] ?? 0) / 1024, results["flood_other_shown_after_s"] ?? -1))
            if previous != nil {
                print(String(format: """
                    the baseline at full speed: %.3f× without the programs; the service %.3f× the baseline
                    per packet: %.1f ns with the baseline's programs; the service's %.2f× the baseline's
                    """, results["full_speed_baseline_ratio"] ?? 0, results["full_speed_ratio_to_baseline"] ?? 0,
                    results["baseline_per_packet_ns"] ?? 0, results["per_packet_ratio_to_baseline"] ?? 0))
            }
        }
    }

    /// Per packet across a veth pair, the path of a download from the network, on which the programs look the
    /// packet's cgroup up among the held ones (a loopback packet skips that): the service's programs with no app
    /// held, with one app paused beside the transfer (a loopback trickle from its own cgroup, paused with `Pause`),
    /// with the transfer's own cgroup limited (`LimitedApp`, a terabyte a second each way: every packet takes the
    /// queue's arithmetic, none waits), and the smallest counting program, each first in turn.
    private func measureHolding(_ executable: URL, tree: CgroupTree, into results: inout [String: Double]) throws {
        let link = try VethLink()
        var costs: [String: [Double]] = [:]
        try TrafficCost.withStatistics {
            let order = ["service", "paused", "limited", "reference"]
            for round in 0..<rounds {
                for step in order.indices {
                    let variant = order[(round + step) % order.count]
                    guard variant != "reference" else {
                        costs[variant, default: []].append(try TrafficCost.reference(cgroupRoot: tree.root) {
                            try VethTransfer.run(link, seconds: seconds)
                        }.0)
                        continue
                    }
                    costs[variant, default: []].append(try whileCounting(executable) { bus, service in
                        let pausedApp = variant == "paused" ? try PausedApp(bus) : nil
                        defer { _ = pausedApp }
                        let limited = variant == "limited" ? try LimitedApp(bus, down: AppLimit.fastest, up: AppLimit.fastest) : nil
                        let ids = programIDs(in: service.log)
                        let before = try TrafficCost.statistics(ofPrograms: ids)
                        if let limited {
                            _ = try limited.cgroup.whileInside { try VethTransfer.run(link, seconds: seconds) }
                        } else {
                            _ = try VethTransfer.run(link, seconds: seconds)
                        }
                        return TrafficCost.perRun(before, try TrafficCost.statistics(ofPrograms: ids))
                    })
                }
            }
        }
        let reference = median(costs["reference"] ?? [])
        results["veth_per_packet_ns"] = median(costs["service"] ?? [])
        results["veth_paused_per_packet_ns"] = median(costs["paused"] ?? [])
        results["veth_limited_per_packet_ns"] = median(costs["limited"] ?? [])
        results["veth_reference_per_packet_ns"] = reference
        results["veth_per_packet_ratio"] = median(costs["service"] ?? []) / reference
        results["veth_paused_per_packet_ratio"] = median(costs["paused"] ?? []) / reference
        results["veth_limited_per_packet_ratio"] = median(costs["limited"] ?? []) / reference
    }

    /// Runs `body` while the system service counts everything, loopback too; the service is gone before it returns,
    /// so that its stopping slows no transfer after it.
    func whileCounting<T>(_ executable: URL, _ body: (PrivateBus, DaemonProcess) throws -> T) throws -> T {
        let bus = try PrivateBus()
        let service = try DaemonProcess(bus: bus, arguments: DaemonProcess.noDelays + ["--traffic", "--traffic-loopback"],
                                        executable: executable, systemBus: true)
        defer {
            service.send(SIGTERM)
            _ = service.exitStatus()
        }
        try service.awaitLog("counting apps' traffic")
        return try body(bus, service)
    }

    /// The counting programs' ids, from the service's line "counting apps' traffic … (programs A and B; …".
    func programIDs(in log: String) -> [String] {
        guard let line = log.split(separator: "\n").first(where: { $0.contains("(programs ") }) else { return [] }
        return line.split(separator: "(programs ")[1].split(separator: ";")[0].split(separator: " and ").map(String.init)
    }

    /// One user (4343) makes `flood` cgroups and moves the threshold once from each, while another user's app
    /// downloads: the service's CPU and peak memory over the flood, and how long the other app took to show.
    private func measureFlood(_ executable: URL, into results: inout [String: Double]) throws {
        let bus = try PrivateBus()
        // At debug level, each wake-up is a line: the benchmark counts them.
        let service = try DaemonProcess(bus: bus, arguments: DaemonProcess.noDelays
                                            + ["--traffic", "--traffic-loopback", "--log-level", "debug"],
                                        executable: executable, systemBus: true)
        try service.awaitLog("counting apps' traffic")
        let figures = service.figures
        try awaitStill(figures)
        let flooder = try BenchCgroup(unitName: "flood")
        let other = try BenchCgroup(unitName: "app-bench-other\\x2duser-2.scope")
        let before = try figures.cpuTicks
        let started = Date()
        let flooding = Process()
        flooding.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        flooding.arguments = ["-c", Self.floodScript, flooder.path, String(flood)]
        try flooding.run()
        // Another user's app, while the flood goes on: root's sockets, at four times the threshold.
        var shownAfter = -1.0
        let downloadStarted = Date()
        let client = try RawClient(bus)
        _ = try other.whileInside {
            try LoopbackTransfer.run(seconds: 5, bytesPerSecond: 131_072, whilePaced: {
                if shownAfter < 0, (try? client.details())?.contains(where: { $0.application == "other-user" }) == true {
                    shownAfter = Date().timeIntervalSince(downloadStarted)
                }
            })
        }
        waitForExit(flooding)
        // The apps that woke the service are let go within 3 s of their last byte.
        Thread.sleep(forTimeInterval: 4)
        let elapsed = Date().timeIntervalSince(started)
        results["flood_seconds"] = elapsed
        results["flood_cpu_percent"] = Double(try figures.cpuTicks - before) / Double(sysconf(Int32(_SC_CLK_TCK))) / elapsed * 100
        results["flood_peak_kib"] = Double(try figures.peakResidentKiB)
        results["flood_other_shown_after_s"] = shownAfter
        results["flood_wake_ups"] = Double(service.log.split(separator: "\n").filter {
            $0.contains("woke the service for") && $0.contains("user 4343")
        }.count)
    }

    /// Makes N cgroups in the folder given, and from each, as user 4343, connects to a local sink and sends 96 KiB
    /// at once: the threshold within a second, once per cgroup.
    private static let floodScript = """
        import os, socket, sys, threading
        folder, count = sys.argv[1], int(sys.argv[2])
        sink = socket.socket(); sink.bind(("127.0.0.1", 0)); sink.listen(64)
        def drain():
            while True:
                peer, _ = sink.accept()
                threading.Thread(target=lambda p: [None for _ in iter(lambda: p.recv(1 << 16), b"")], args=(peer,), daemon=True).start()
        threading.Thread(target=drain, daemon=True).start()
        for number in range(count):
            unit = os.path.join(folder, "app-flood-app%d-%d.scope" % (number, number))
            os.mkdir(unit)
            child = os.fork()
            if child == 0:
                with open(os.path.join(unit, "cgroup.procs"), "w") as procs: procs.write(str(os.getpid()))
                os.setgid(4343); os.setuid(4343)
                connection = socket.create_connection(sink.getsockname())
                for _ in range(3): connection.sendall(b"\\0" * 32768)
                connection.close()
                os._exit(0)
            os.waitpid(child, 0)
        for number in range(count):
            try: os.rmdir(os.path.join(folder, "app-flood-app%d-%d.scope" % (number, number)))
            except OSError: pass
        """

    func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}

/// A cgroup named like an app's unit, in a folder of the benchmark's own at the root of the cgroup v2 tree: the
/// benchmark moves itself in for a transfer, and back out.
final class BenchCgroup {
    private let folder: String
    private let unit: String
    private let home: String

    init(unitName: String) throws {
        let mounts = try String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)
        guard let root = mounts.split(separator: "\n").compactMap({ line -> String? in
            let halves = line.components(separatedBy: " - ")
            guard halves.count == 2, halves[1].hasPrefix("cgroup2 ") else { return nil }
            let fields = halves[0].split(separator: " ")
            return fields.count >= 5 ? String(fields[4]) : nil
        }).first else { throw BenchFailure("no cgroup2 tree is mounted") }
        let own = try String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8).split(separator: "\n")
            .first { $0.hasPrefix("0::") }.map { String($0.dropFirst(3)) } ?? "/"
        home = root + (own == "/" ? "" : own)
        folder = root + "/netactivity-bench-\(getpid())"
        unit = folder + "/" + unitName
        guard mkdir(folder, 0o755) == 0 || errno == EEXIST, mkdir(unit, 0o755) == 0 else {
            throw BenchFailure("cannot make \(unit): errno \(errno)")
        }
    }

    deinit {
        rmdir(unit)
        rmdir(folder)
    }

    /// The unit's folder.
    var path: String { unit }

    /// Runs `body` with this process in the cgroup; its sockets are the cgroup's.
    func whileInside<Result>(_ body: () throws -> Result) throws -> Result {
        try "\(getpid())".write(toFile: unit + "/cgroup.procs", atomically: false, encoding: .utf8)
        defer { try? "\(getpid())".write(toFile: home + "/cgroup.procs", atomically: false, encoding: .utf8) }
        return try body()
    }
}

/// An app whose network the service holds paused: a trickle on loopback (262 kB/s, past the threshold) from a cgroup
/// named like an app's unit, shown as an activity and then paused with `Pause`; stopped, and its cgroup removed,
/// when it goes.
private final class PausedApp {
    private let cgroup: BenchCgroup
    private let process = Process()

    private static let script = """
        import os, socket, sys, threading, time
        with open(sys.argv[1] + "/cgroup.procs", "w") as procs: procs.write(str(os.getpid()))
        sink = socket.socket(); sink.bind(("127.0.0.1", 0)); sink.listen(1)
        sender = socket.create_connection(sink.getsockname())
        peer, _ = sink.accept()
        threading.Thread(target=lambda: [None for _ in iter(lambda: peer.recv(1 << 16), b"")], daemon=True).start()
        while True:
            sender.sendall(b"\\0" * 13107)
            time.sleep(0.05)
        """

    init(_ bus: PrivateBus) throws {
        cgroup = try BenchCgroup(unitName: "app-bench-paused\\x2dapp-3.scope")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", Self.script, cgroup.path]
        try withSignalsUnblocked { try process.runHandingOverFiles() }
        let client = try RawClient(bus)
        let deadline = Date().addingTimeInterval(20)
        var activity: ActivityDetails?
        while activity == nil, Date() < deadline {
            activity = try client.details().first { $0.application == "paused-app" && $0.source == .traffic }
            if activity == nil { Thread.sleep(forTimeInterval: 0.2) }
        }
        guard let activity else { throw BenchFailure("the app to pause did not show within 20 s") }
        _ = try client.call(PauseMembers.pause.serviceCall(activity.id))
        guard try client.details().contains(where: { $0.id == activity.id && $0.isPaused == true }) else {
            throw BenchFailure("the app did not show paused")
        }
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        waitForExit(process)
    }
}
