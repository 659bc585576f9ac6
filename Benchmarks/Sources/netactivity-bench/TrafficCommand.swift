// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Foundation
import NetworkActivityInterface
import ServiceHarness

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
            else of this benchmark moves anything; other programs of the machine might). Per packet: --rounds \
            pairs of --seconds-long TCP transfers on loopback at full speed, one without the service, one with it \
            and --traffic-loopback (so the transfer is counted and followed), back to back, each first in turn; the \
            median of the pairs' ratios. \
            Load: a transfer paced to --rate bytes a second for --busy seconds, from a cgroup named like an app's \
            unit: the service's CPU and wake-ups a second, and whether the app showed.
            """)

    @Option(help: ArgumentHelp("The netactivityd to measure (default: the release build's).", valueName: "path"))
    var daemon: String?
    @Option(help: "Seconds over which the idle service is watched.") var idle = 60.0
    @Option(help: "Pairs of full-speed transfers.") var rounds = 20
    @Option(help: "Seconds of each full-speed transfer.") var seconds = 2.0
    @Option(help: "Seconds of the paced transfer.") var busy = 10.0
    @Option(help: "Bytes a second of the paced transfer.") var rate = 100_000_000.0
    @Flag(help: "Print the figures as JSON.") var json = false

    func validate() throws {
        guard idle > 0, busy > 0, seconds > 0, rounds >= 1, rate > 0 else {
            throw ValidationError("--idle, --busy, --seconds and --rate take values above 0, --rounds at least 1.")
        }
        guard geteuid() == 0 else { throw ValidationError("counting traffic needs root") }
    }

    func run() throws {
        let executable = try DaemonExecutable.find(daemon)
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

        // Per packet: the same transfer without and with the programs, back to back in each round, in turn
        // first and second, so that the machine's own changes fall on both; the ratio of each round's pair.
        var without: [Double] = [], with: [Double] = [], ratios: [Double] = []
        for round in 0..<rounds {
            var pair: (without: Double, with: Double) = (0, 0)
            for withPrograms in round % 2 == 0 ? [false, true] : [true, false] {
                guard withPrograms else {
                    pair.without = Double(try LoopbackTransfer.run(seconds: seconds)) / seconds
                    continue
                }
                let bus = try PrivateBus()
                let service = try DaemonProcess(bus: bus, arguments: DaemonProcess.noDelays + ["--traffic", "--traffic-loopback"],
                                                executable: executable, systemBus: true)
                try service.awaitLog("counting apps' traffic")
                pair.with = Double(try LoopbackTransfer.run(seconds: seconds)) / seconds
                // Gone before the next transfer without it, which its stopping would otherwise slow.
                service.send(SIGTERM)
                _ = service.exitStatus()
            }
            without.append(pair.without)
            with.append(pair.with)
            ratios.append(pair.with / pair.without)
        }
        results["full_speed_without_bytes_per_s"] = median(without)
        results["full_speed_with_bytes_per_s"] = median(with)
        results["full_speed_ratio"] = median(ratios)

        // One app at 100 MB/s, from a cgroup named like its unit.
        do {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus, arguments: DaemonProcess.noDelays + ["--traffic", "--traffic-loopback"],
                                            executable: executable, systemBus: true)
            try service.awaitLog("counting apps' traffic")
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
                loopback at full speed: %.0f MB/s without the programs, %.0f MB/s with them: %.3f×
                one app at %.0f MB/s (%.0f MB/s moved): service CPU %.2f %%, %.1f wake-ups/s, shown: %@
                """, idle, results["idle_ticks"] ?? 0, results["idle_wakeups"] ?? 0,
                (results["full_speed_without_bytes_per_s"] ?? 0) / 1e6, (results["full_speed_with_bytes_per_s"] ?? 0) / 1e6,
                results["full_speed_ratio"] ?? 0, rate / 1e6, (results["load_bytes_per_s"] ?? 0) / 1e6,
                results["load_cpu_percent"] ?? 0, results["load_wakeups_per_s"] ?? 0,
                results["load_app_shown"] == 1 ? "yes" : "no"))
        }
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}

/// A cgroup named like an app's unit, in a folder of the benchmark's own at the root of the cgroup v2 tree: the
/// benchmark moves itself in for a transfer, and back out.
private final class BenchCgroup {
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
        guard mkdir(folder, 0o755) == 0, mkdir(unit, 0o755) == 0 else {
            throw BenchFailure("cannot make \(unit): errno \(errno)")
        }
    }

    deinit {
        rmdir(unit)
        rmdir(folder)
    }

    /// Runs `body` with this process in the cgroup; its sockets are the cgroup's.
    func whileInside<Result>(_ body: () throws -> Result) throws -> Result {
        try "\(getpid())".write(toFile: unit + "/cgroup.procs", atomically: false, encoding: .utf8)
        defer { try? "\(getpid())".write(toFile: home + "/cgroup.procs", atomically: false, encoding: .utf8) }
        return try body()
    }
}
