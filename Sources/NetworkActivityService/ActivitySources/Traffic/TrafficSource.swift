// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity
import ProgramSupport
import TrafficCounters

/// Apps' traffic for the system service, wired once: the kernel's side (`TrafficKernel`) and its peers,
/// registered in one list: the measured apps (`MeasuredApps`, activities of the `traffic` source), the pausing
/// (`AppPausing`), the data usage (`DataUsageKeeper`), the speed limits (`AppLimits`) and the data plans
/// (`NetworkPlans`). The service keeps it as it is, and hands each peer to
/// what serves it: the activities' `SourceWork`, `PauseEndpoint`, `UsageEndpoint`. It costs nothing while no app
/// moves: the loop sleeps on the kernel's wake-ups, counts are read once a second only while an app is followed,
/// and taken for the totals at most once a minute while anything moves.
final class TrafficSource: SourceAdapter {
    static let bus = FollowedBus.kernel
    static let readsAtEndOfTurn = true

    let kernel: TrafficKernel
    let apps: MeasuredApps
    let pausing: AppPausing
    let usage: DataUsageKeeper
    let limits: AppLimits
    let plans: NetworkPlans
    let metered: MeteredNetworks

    /// Attaches the kernel's counting; throws what is missing, in words for people. What the kernel's verifier
    /// said of a refused program, which can name kernel addresses, goes to the journal alone.
    init(connection: Connection, work: SourceWork, configuration: ServiceConfiguration,
         clock: any TimeSource) throws(DBusError) {
        let options = configuration.traffic
        guard let tree = CgroupTree.mounted() else {
            throw DBusError(.failed, "no cgroup v2 tree is mounted (/proc/self/mountinfo names no cgroup2)")
        }
        let counters: TrafficCounters
        do {
            counters = try TrafficCounters(cgroupRoot: tree.root, threshold: options.threshold,
                                           countsLoopback: options.countsLoopback)
        } catch {
            if let verifierLog = error.verifierLog { work.logger.warning("the kernel's verifier said: \(verifierLog)") }
            throw DBusError(.failed, error.description)
        }
        let networks = NetworkNames(connection: connection, ownNamespace: TrafficCounters.ownNamespace(),
                                    logger: work.logger)
        kernel = TrafficKernel(counters: counters, paths: CgroupPaths(tree: tree), networks: networks,
                               logger: work.logger, clock: clock)
        apps = MeasuredApps(kernel: kernel, work: work, threshold: options.threshold, choice: options.choice)
        pausing = AppPausing(kernel: kernel, apps: apps)
        usage = DataUsageKeeper(kernel: kernel, options: options)
        limits = AppLimits(kernel: kernel, directory: options.usageDirectory)
        limits.onHeld = { [unowned apps] cgroupID in apps.limitChanged(of: cgroupID) }
        // The limits first: a new instance is held from its first entry. The pausing before the apps: an app gone
        // while paused ends `paused` before its counts are read.
        for peer in [limits, pausing, apps, usage] as [any TrafficPeer] { kernel.register(peer) }
        plans = NetworkPlans(kernel: kernel, usage: usage, directory: options.usageDirectory)
        kernel.register(plans)
        metered = MeteredNetworks(kernel: kernel)
        work.logger.info("counting apps' traffic at \(tree.root) (programs \(counters.programIDs.map(String.init).joined(separator: " and ")); from \(options.threshold) bytes a second\(options.countsLoopback ? ", loopback included" : "")\(counters.tellsNamespaces ? "" : "; this kernel does not tell network namespaces apart"))")
    }

    /// What the loop sleeps on: readable when the kernel woke the service for an app.
    var wakeUpDescriptor: Int32? { kernel.counters.wakeUpDescriptor }

    func wokeUp() {
        kernel.readWakeUps()
    }

    func endOfTurn() -> Duration? {
        kernel.endOfTurn()
    }

    /// Takes the kernel's counts into the totals now, and writes them: before the service stops, since the
    /// kernel's map goes with this process.
    func takeUsageNow() {
        usage.takeNow(saving: true)
    }
}

