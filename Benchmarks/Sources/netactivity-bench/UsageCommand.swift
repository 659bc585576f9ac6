// SPDX-License-Identifier: Apache-2.0
import ProgramSupport
import ArgumentParser
import Foundation
import NetworkActivity
import NetworkActivityInterface
import ServiceHarness

/// What keeping the data each app used costs (docs/performance.md, "Data usage"): the usage file at 90 days of 200
/// apps on 3 networks, `netactivity usage --month` against a service holding them, and the service's wake-ups idle
/// and while one app trickles below the traffic threshold. Needs root, as the counting does.
struct UsageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "usage",
        abstract: "Measures the data usage's file, its answers, and the service's wake-ups idle and under a trickle.",
        discussion: """
            Writes the usage file of --days days of --apps apps on 3 networks (the domain's own encoder), and starts \
            the release build's netactivityd as the system service (on a private bus, --traffic) with it: its size, \
            the service's memory holding it, and the median of --runs timings of `netactivity usage --system \
            --month` (the program's whole run: start, the call, the table). Then, with the kernel's counting: the \
            service's loop wake-ups over --idle seconds while nothing of the benchmark moves anything, and over \
            --trickle seconds while one app moves --trickle-rate bytes a second on loopback (--traffic-loopback), \
            below the threshold: wake-ups a minute and how often it took the kernel's counts.
            """)

    @Option(help: ArgumentHelp("The netactivityd to measure (default: the release build's).", valueName: "path"))
    var daemon: String?
    @Option(help: "Days in the usage file.") var days = 90
    @Option(help: "Apps a day in the usage file, each on 3 networks.") var apps = 200
    @Option(help: "Timed runs of netactivity usage --month.") var runs = 15
    @Option(help: "Seconds over which the idle service is watched.") var idle = 60.0
    @Option(help: "Seconds of the trickle.") var trickle = 180.0
    @Option(help: "Bytes a second of the trickle.") var trickleRate = 2_048.0
    @Flag(help: """
        Write the largest file the bounds allow instead: every day full (as many rows as a day holds, of 200 users), \
        every name a row's own and as long as a name may be; --apps is then ignored.
        """) var worstCase = false
    @Flag(help: "Measure the file and the memory of the service holding it alone: no questions, no idle, no trickle.")
    var memoryOnly = false
    @Flag(help: "Print the figures as JSON.") var json = false

    func validate() throws {
        guard days >= 1, apps >= 1, runs >= 1, idle > 0, trickle > 0, trickleRate > 0 else {
            throw ValidationError("every figure takes a value above 0")
        }
        guard geteuid() == 0 else { throw ValidationError("counting traffic needs root") }
    }

    func run() throws {
        let executable = try DaemonExecutable.find(daemon)
        var results: [String: Double] = [:]

        // The file: every app on three networks every day, with labels as long as an app's name.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("netactivity-usage-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var usage = DataUsage(keptDays: days)
        let today = UsageDay(daysSinceEpoch: Int(Date().timeIntervalSince1970 / 86_400))
        if worstCase { fillToTheBounds(&usage, today: today) }
        for back in 0..<(worstCase ? 0 : days) {
            for app in 0..<apps {
                for (network, metered) in [("Home Wi-Fi", false), ("Phone hotspot", true), ("enp3s0", false)] {
                    usage.add(ByteCounts(received: UInt64.random(in: 0...5_000_000_000), sent: UInt64.random(in: 0...50_000_000)),
                              to: UsageEntry(day: today.adding(days: -back), user: 1000, privateTo: 1000,
                                             application: "org.example.Application\(app)", network: network,
                                             metered: metered),
                              label: "Example Application \(app)")
                }
            }
        }
        let bytes = UsageFileFormat.encode(usage)
        try Data(bytes).write(to: folder.appendingPathComponent("usage"))
        results["file_bytes"] = Double(bytes.count)
        results["file_rows"] = Double(usage.rows.count)
        results["file_bound_bytes"] = Double(UsageFileFormat.maximumSize(keptDays: days))

        do {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus, arguments: DaemonProcess.noDelays
                                                + ["--traffic", "--usage-dir", folder.path, "--usage-days", String(days)],
                                            executable: executable, systemBus: true)
            try service.awaitLog("counting apps' traffic")
            results["service_rss_kib"] = Double(try service.figures.residentKiB)
            results["service_peak_rss_kib"] = Double(try service.figures.peakResidentKiB)
            if memoryOnly { return try report(results) }
            // posix_spawn, as `clients` times the command: nothing of Foundation's `Process` in the figure.
            let spawner = Spawner(environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
            let command = MeasuredPrograms.program("netactivity").path
            func milliseconds(_ arguments: [String]) throws -> Double {
                let timings = try (0..<runs).map { _ in try spawner.run([command] + arguments).wall }
                    .map { Double($0.components.seconds) * 1e3 + Double($0.components.attoseconds) / 1e15 }
                return median(timings)
            }
            results["usage_month_ms"] = try milliseconds(["usage", "--system", "--month"])
            results["usage_today_ms"] = try milliseconds(["usage", "--system", "--today"])
            results["status_ms"] = try milliseconds(["status", "--system"])
            results["service_rss_after_kib"] = Double(try service.figures.residentKiB)
            results["service_peak_rss_kib"] = Double(try service.figures.peakResidentKiB)
        }

        // Idle, then a trickle below the threshold: the loop's wake-ups, and the takes the log names.
        do {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus, arguments: DaemonProcess.noDelays
                                                + ["--traffic", "--traffic-loopback", "--log-level", "debug",
                                                   "--usage-dir", folder.path],
                                            executable: executable, systemBus: true)
            try service.awaitLog("counting apps' traffic")
            let figures = service.figures
            Thread.sleep(forTimeInterval: 1)
            var before = try figures.mainThreadContextSwitches
            Thread.sleep(forTimeInterval: idle)
            results["idle_wakeups"] = Double(try figures.mainThreadContextSwitches - before)
            let takesBefore = takes(in: service.log)
            before = try figures.mainThreadContextSwitches
            let started = Date()
            _ = try LoopbackTransfer.run(seconds: trickle, bytesPerSecond: trickleRate, chunkSize: 512)
            let elapsed = Date().timeIntervalSince(started)
            results["trickle_wakeups_per_minute"] = Double(try figures.mainThreadContextSwitches - before) / elapsed * 60
            results["trickle_takes_per_minute"] = Double(takes(in: service.log) - takesBefore) / elapsed * 60
            results["trickle_followed"] = service.log.contains("woke the service for") ? 1 : 0
        }

        try report(results)
    }

    private func report(_ results: [String: Double]) throws {
        if json {
            print(String(decoding: try JSONSerialization.data(withJSONObject: results, options: [.sortedKeys]),
                         as: UTF8.self))
        } else {
            print(String(format: """
                usage file, %d days of %@ (%.0f rows): %.0f bytes (%.2f MB; the bound %.2f MB)
                service holding it: %.1f MB resident (%.1f MB after the questions, at most %.1f MB)
                netactivity usage --system --month: %.1f ms (median of %d); --today %.1f ms; status --system %.1f ms
                idle with --traffic (%.0f s): %.0f wake-ups
                a trickle of %.0f B/s for %.0f s: %.2f wake-ups a minute, %.2f takes of the counts a minute, past the threshold: %@
                """, days, worstCase ? "the bounds' largest" : "\(apps) apps on 3 networks", results["file_rows"] ?? 0,
                results["file_bytes"] ?? 0, (results["file_bytes"] ?? 0) / 1e6, (results["file_bound_bytes"] ?? 0) / 1e6,
                (results["service_rss_kib"] ?? 0) / 1024, (results["service_rss_after_kib"] ?? 0) / 1024,
                (results["service_peak_rss_kib"] ?? 0) / 1024,
                results["usage_month_ms"] ?? 0, runs, results["usage_today_ms"] ?? 0, results["status_ms"] ?? 0, idle, results["idle_wakeups"] ?? 0, trickleRate, trickle,
                results["trickle_wakeups_per_minute"] ?? 0, results["trickle_takes_per_minute"] ?? 0,
                results["trickle_followed"] == 1 ? "yes" : "no"))
        }
    }

    /// Every day of the file as full as the bounds allow: `DataUsage.maximumGroupsPerDay` users, each with an equal
    /// share of the day's rows, every row with an app, a network and a label of its own, each of the longest.
    private func fillToTheBounds(_ usage: inout DataUsage, today: UsageDay) {
        let users = DataUsage.maximumGroupsPerDay
        let perUser = DataUsage.maximumRowsPerDay / users
        func longest(_ kind: String, _ back: Int, _ user: Int, _ row: Int) -> String {
            let suffix = "-\(kind)-\(back)-\(user)-\(row)"
            return String(repeating: "x", count: ActivityLabel.maximumByteCount - suffix.utf8.count) + suffix
        }
        for back in 0..<days {
            for user in 0..<users {
                let uid = UInt32(1_000 + user)
                for row in 0..<perUser {
                    usage.add(ByteCounts(received: 5_000_000_000, sent: 50_000_000),
                              to: UsageEntry(day: today.adding(days: -back), user: uid, privateTo: uid,
                                             application: longest("app", back, user, row),
                                             network: longest("network", back, user, row), metered: row % 2 == 0),
                              label: longest("label", back, user, row))
                }
            }
        }
    }

    private func takes(in log: String) -> Int {
        log.split(separator: "\n").filter { $0.contains("took the kernel's counts") }.count
    }

    private func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }
}
