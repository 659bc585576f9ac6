// SPDX-License-Identifier: Apache-2.0
import Foundation
import ServiceHarness
import TrafficCounters

/// What the counting programs cost per packet, as the kernel times them (`kernel.bpf_stats_enabled`): the service's
/// programs in the service's process (read with bpftool, by their ids), the smallest counting program
/// (`TrafficCounters.Programs.reference`: one lookup and one atomic add, systemd's way) loaded the same way in this
/// process.
enum TrafficCost {
    /// Runs `body` with the kernel timing BPF programs, and puts the setting back as it was.
    static func withStatistics<Result>(_ body: () throws -> Result) throws -> Result {
        let setting = "/proc/sys/kernel/bpf_stats_enabled"
        let before = (try? String(contentsOfFile: setting, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "0"
        try "1".write(toFile: setting, atomically: false, encoding: .utf8)
        defer { try? before.write(toFile: setting, atomically: false, encoding: .utf8) }
        return try body()
    }

    /// Runs and nanoseconds of the programs with these ids so far, from `bpftool prog show id ID --json`.
    static func statistics(ofPrograms ids: [String]) throws -> (runs: UInt64, nanoseconds: UInt64) {
        var total: (runs: UInt64, nanoseconds: UInt64) = (0, 0)
        for id in ids {
            let process = Process()
            let output = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/bpftool")
            process.arguments = ["prog", "show", "id", id, "--json"]
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            waitForExit(process)
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw BenchFailure("bpftool said nothing of program \(id)")
            }
            total.runs += (object["run_cnt"] as? NSNumber)?.uint64Value ?? 0
            total.nanoseconds += (object["run_time_ns"] as? NSNumber)?.uint64Value ?? 0
        }
        return total
    }

    /// Nanoseconds a run between two readings.
    static func perRun(_ before: (runs: UInt64, nanoseconds: UInt64), _ after: (runs: UInt64, nanoseconds: UInt64))
        -> Double {
        after.runs > before.runs ? Double(after.nanoseconds - before.nanoseconds) / Double(after.runs - before.runs) : 0
    }

    /// The smallest counting program, attached to the cgroup tree at `root` while `body` runs; returns the
    /// nanoseconds a run it took, and `body`'s result.
    static func reference<Result>(cgroupRoot root: String, _ body: () throws -> Result) throws -> (Double, Result) {
        let counters: TrafficCounters
        do {
            counters = try TrafficCounters(cgroupRoot: root, programs: .reference)
        } catch {
            throw BenchFailure("the reference program: \(error)")
        }
        let before = counters.runStatistics()
        let result = try body()
        return (perRun(before, counters.runStatistics()), result)
    }
}
