// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Foundation
import ServiceHarness

/// Raises the daemon to a peak of live activities, ends them all, and compares its resident memory with what it
/// was before (docs/reliability.md).
struct MemoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memory",
        abstract: "Measures whether netactivityd's memory comes back down after a peak of activities.",
        discussion: """
            Starts a dbus-daemon and a netactivityd (delays 0, total limit raised to the peak) of its own. \
            --clients connections begin --peak activities between them, pipelined; every one is then ended with \
            End, and the connections close. Prints the daemon's RSS before, at the peak and after, and exits 1 \
            if it did not come back to within --allowance KiB of before.
            """)

    @Option(help: ArgumentHelp("The netactivityd to measure (default: the release build's).", valueName: "path"))
    var daemon: String?

    @Option(help: "Live activities at the peak.") var peak = 100_000
    @Option(help: "Connections that hold them.") var clients = 100
    @Option(help: "How far above its RSS before the run the daemon's RSS may stay, in KiB.") var allowance = 2048
    @Flag(help: "Print the figures as JSON.") var json = false

    func validate() throws {
        guard clients >= 1, peak >= clients, peak <= 10_000_000 else {
            throw ValidationError("--peak takes --clients to 10,000,000.")
        }
    }

    func run() throws {
        let bus = try PrivateBus()
        let perClient = (peak + clients - 1) / clients
        let service = try DaemonProcess(
            bus: bus, arguments: DaemonProcess.noDelays + ["--max-total", "\(peak)", "--max-per-caller", "\(perClient)",
                                                       "--max-per-user", "\(peak)"],
            executable: try DaemonExecutable.find(daemon))
        let probe = try ServiceProbe(bus)
        let before = try service.residentKiB

        var holders = try (0..<clients).map { _ in try bus.connect() }
        var ids: [[UInt32]] = []
        for (index, holder) in holders.enumerated() {
            let count = min(perClient, peak - index * perClient)
            ids.append(try holder.beginActivities(max(count, 0), label: "memory-\(index)"))
        }
        let live = try probe.activeCount
        let atPeak = try service.residentKiB
        for (holder, held) in zip(holders, ids) { try holder.endActivities(held) }
        holders.removeAll()
        try probe.await("ActiveCount 0", timeout: .seconds(30)) { try probe.activeCount == 0 }
        let after = try service.residentKiB

        let figures = ["peak_activities": Int(live), "rss_before_kib": before, "rss_peak_kib": atPeak,
                       "rss_after_kib": after, "rss_kept_kib": after - before]
        if json {
            print(String(decoding: try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys]),
                         as: UTF8.self))
        } else {
            print("""
                netactivity-bench memory: \(live) activities of \(clients) connections at the peak
                daemon RSS before                    \(before) KiB
                daemon RSS at the peak               \(atPeak) KiB
                daemon RSS after all ended           \(after) KiB
                kept                                 \(after - before) KiB (allowed \(allowance))
                """)
        }
        if after - before > allowance { throw ExitCode(1) }
    }
}
