// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity
import ProgramSupport
import TrafficCounters

/// Holding apps' packets back, by the id of their measured traffic's activity (`PauseEndpoint`): a peer of
/// `TrafficKernel`, whose pause map has the kernel drop them. The pause is lifted at `Resume`, when the app's last
/// row ends (`MeasuredApps`), and when the app's cgroup empties or goes away (checked each second while any app is
/// paused): its row then ends `paused`.
final class AppPausing: TrafficPeer, TrafficPausing {
    static let checkInterval = Duration.seconds(1)

    private unowned let kernel: TrafficKernel
    private unowned let apps: MeasuredApps
    private var nextCheck: MonotonicTime?

    init(kernel: TrafficKernel, apps: MeasuredApps) {
        self.kernel = kernel
        self.apps = apps
    }

    func setPaused(_ pause: Bool, activity id: ActivityID) throws(DBusError) {
        guard let (cgroupID, app) = apps.app(shownAs: id) else { return }
        let now = kernel.clock.monotonicNow()
        if pause {
            guard !kernel.isPaused(cgroupID) else { return }
            guard kernel.pause(cgroupID) else {
                throw DBusError(.limitExceeded, "at most \(TrafficCounters.heldCapacity) apps may be paused or limited at once")
            }
            nextCheck = nextCheck ?? now + Self.checkInterval
        } else {
            guard kernel.resume(cgroupID) else { return }
        }
        kernel.logger.info("\(pause ? "paused" : "resumed") the network of \(app.path)")
        apps.pauseChanged(of: cgroupID, paused: pause, at: now)
    }

    /// Lifts the pause of the apps whose cgroups emptied or went away: their rows end, `paused`.
    func endOfTurn(at now: MonotonicTime) -> Duration? {
        guard let due = nextCheck else { return nil }
        guard now >= due else { return now.duration(to: due) }
        for cgroupID in kernel.pausedCgroups where apps.hasGone(cgroupID) {
            kernel.logger.info("\(apps.path(of: cgroupID) ?? "cgroup \(cgroupID)") went away while paused: its pause is lifted")
            kernel.resume(cgroupID)
            apps.endRows(of: cgroupID, .paused)
        }
        nextCheck = kernel.pausedCgroups.isEmpty ? nil : now + Self.checkInterval
        return nextCheck.map { now.duration(to: $0) }
    }
}
