// SPDX-License-Identifier: Apache-2.0
import Foundation
import NetworkActivity
import NetworkActivityInterface
import ServiceHarness

/// An app under a speed limit: a cgroup named like an app's unit (`limited-app`), outside every user's slice, so
/// that a rule of root's holds it, set once the cgroup is there (a rule set holds the app's running cgroups at
/// once); no rule when neither way is given. Its cgroup is removed when it goes.
final class LimitedApp {
    let cgroup: BenchCgroup

    init(_ bus: PrivateBus, down: UInt64?, up: UInt64?) throws {
        cgroup = try BenchCgroup(unitName: "app-bench-limited\\x2dapp-4.scope")
        guard down != nil || up != nil else { return }
        _ = try RawClient(bus).call(LimitsMembers.setLimit.serviceCall("limited-app", LimitChange(down: down, up: up)))
    }
}

extension TrafficCommand {
    /// A download across a veth pair that a limit holds to 1 MB/s for --busy seconds, against the same download
    /// paced to 1 MB/s by its sender, with no rule (the receiver in the app's cgroup, the sender outside it, as a
    /// server on the network is): the programs' time (as the kernel times them), the service's CPU and the
    /// whole machine's (`/proc/stat`, every CPU), each as a share of one core.
    func measureLimitedDownload(_ executable: URL, into results: inout [String: Double]) throws {
        let link = try VethLink()
        let rate: UInt64 = 1_000_000
        try TrafficCost.withStatistics {
            for limited in [true, false] {
                try whileCounting(executable) { bus, service in
                    let app = try LimitedApp(bus, down: limited ? rate : nil, up: nil)
                    let ids = programIDs(in: service.log)
                    let figures = service.figures
                    let before = (try TrafficCost.statistics(ofPrograms: ids), try figures.cpuTicks, try Self.machineTicks())
                    let started = Date()
                    let moved = try VethTransfer.run(link, seconds: busy, bytesPerSecond: limited ? nil : Double(rate),
                                                     receiverCgroup: app.cgroup.path)
                    let elapsed = Date().timeIntervalSince(started)
                    let programs = try TrafficCost.statistics(ofPrograms: ids)
                    let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
                    let name = limited ? "limited_download" : "paced_download"
                    results[name + "_bytes_per_s"] = Double(moved) / elapsed
                    results[name + "_programs_percent"] = Double(programs.nanoseconds - before.0.nanoseconds) / 1e9 / elapsed * 100
                    results[name + "_service_cpu_percent"] = Double(try figures.cpuTicks - before.1) / ticksPerSecond / elapsed * 100
                    results[name + "_machine_percent"] = Double(try Self.machineTicks() - before.2) / ticksPerSecond / elapsed * 100
                }
            }
        }
    }

    /// Every CPU's busy ticks so far: the first line of `/proc/stat` but its idle and iowait.
    private static func machineTicks() throws -> Int64 {
        let text = try String(contentsOfFile: "/proc/stat", encoding: .utf8)
        let fields = text.prefix { $0 != "\n" }.split(separator: " ").dropFirst().compactMap { Int64($0) }
        guard fields.count >= 5 else { throw BenchFailure("/proc/stat has no cpu line") }
        return fields.reduce(0, +) - fields[3] - fields[4]
    }
}
