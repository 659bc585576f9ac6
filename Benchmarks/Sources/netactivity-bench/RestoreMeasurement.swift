// SPDX-License-Identifier: Apache-2.0
import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness

/// What a restart with many activities to take over costs: a daemon on a bus of its own, with activities held by
/// connections that stay, is killed and started again on the same state directory.
struct RestoreFigures {
    /// From spawning the second daemon until it owned its name.
    var nameOwned: Duration
    /// From spawning it until its first answer, which comes once it has taken everything over.
    var firstAnswer: Duration
    var restored: Int
    var residentKiB: Int
}

enum RestoreMeasurement {
    /// `count` activities of 10 connections, then a SIGKILL and a new start.
    static func measure(count: Int, executable: URL, arguments: [String]) throws -> RestoreFigures {
        let bus = try PrivateBus()
        let stateDirectory = try StateDirectory.make()
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let daemonArguments = arguments + ["--state-dir", stateDirectory.path, "--max-per-caller", "\(count)"]
        let first = try DaemonProcess(bus: bus, arguments: daemonArguments, executable: executable)
        let holders = try (0..<10).map { _ in try bus.connect() }
        for (index, holder) in holders.enumerated() {
            let share = count / holders.count + (index < count % holders.count ? 1 : 0)
            _ = try holder.beginActivities(share, label: Measurements.label)
        }
        first.send(SIGKILL)
        _ = first.exitStatus()

        // The holders stay on the bus until the new instance has answered, which it does once it has taken over.
        let (second, answered, restored) = try withExtendedLifetime(holders) {
            let second = try DaemonProcess(bus: bus, arguments: daemonArguments, executable: executable)
            let listed = try holders[0].call(ServiceMembers.listActivities.serviceCall(), timeout: .seconds(60))
            let answered = second.spawnedAt.duration(to: .now)
            return (second, answered, listed.count)
        }
        return RestoreFigures(nameOwned: second.startUpTime, firstAnswer: answered, restored: restored,
                              residentKiB: try second.residentKiB)
    }
}

/// Where the benchmark's daemon keeps its state: a tmpfs, as `$XDG_RUNTIME_DIR` is on a desktop.
enum StateDirectory {
    static func make() throws -> URL {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm")
            : FileManager.default.temporaryDirectory
        let url = base.appendingPathComponent("netactivity-bench-state-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        return url
    }
}
