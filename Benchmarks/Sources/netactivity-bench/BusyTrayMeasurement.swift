// SPDX-License-Identifier: Apache-2.0
import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness
import Synchronization

/// The tray and `watch` while many activities report progress: `activities` timed activities, each told of
/// `SetTransfer` `updatesPerSecond` times a second for `seconds`, with a panel's watcher (played here) so that the
/// tray is in a tray and announces its changes as it would to a host. It counts what hosts and panels would have to
/// redraw (the tray's `LayoutUpdated` and `NewToolTip`, `watch`'s lines) against the `ActivitiesChanged` the service
/// sent, and reads the tray's and watch's memory and CPU (docs/performance.md).
struct BusyTrayMeasurement {
    let bus: PrivateBus
    let client: RawClient
    let spawner: Spawner
    let activities: Int
    let updatesPerSecond: Int
    let seconds: Double

    func run() throws -> [String: Double] {
        let panel = try PanelStandIn(bus)
        let watchOutput = FileManager.default.temporaryDirectory
            .appendingPathComponent("netactivity-bench-\(getpid())-watch")
        defer { try? FileManager.default.removeItem(at: watchOutput) }
        let tray = try spawner.start([MeasuredPrograms.program("netactivity-tray").path])
        let watch = try spawner.start([MeasuredPrograms.program("netactivity").path, "watch", "--format", "waybar"],
                                      output: watchOutput.path)
        defer {
            for process in [watch, tray] { kill(process, SIGTERM) }
            for process in [watch, tray] { _ = reap(process) }
        }
        let ids = try (1...activities).map { _ in
            try client.beginTimed("download of a long list of files", seconds: 600)
        }
        try panel.awaitRegistration()
        let (trayFigures, watchFigures) = (ProcessFigures(processID: tray), ProcessFigures(processID: watch))
        Thread.sleep(forTimeInterval: 1)

        let before = (panel.counts, try trayFigures.cpuTicks, try watchFigures.cpuTicks, lineCount(watchOutput))
        let windowStarted = Date()
        let total: UInt64 = 1_000_000_000
        let interval = 1.0 / Double(updatesPerSecond)
        let started = Date()
        var peakTray = 0, peakTrayAnonymous = 0, peakWatch = 0
        let trayAnonymousBefore = try trayFigures.anonymousResidentKiB
        var round = 0
        while Date().timeIntervalSince(started) < seconds {
            round += 1
            for id in ids {
                // About 3 MB/s each: the service's rate and percent move with every report.
                let done = UInt64(round) * 3_000_000 / UInt64(updatesPerSecond)
                _ = try client.call(ServiceMembers.setTransfer.serviceCall(id, done, total))
            }
            peakTray = max(peakTray, try trayFigures.residentKiB)
            peakTrayAnonymous = max(peakTrayAnonymous, try trayFigures.anonymousResidentKiB)
            peakWatch = max(peakWatch, try watchFigures.residentKiB)
            let next = started.addingTimeInterval(Double(round) * interval)
            Thread.sleep(forTimeInterval: max(0, next.timeIntervalSinceNow))
        }
        // What was sent in the last moment reaches them within a pacing interval.
        Thread.sleep(forTimeInterval: 0.6)
        let after = (panel.counts, try trayFigures.cpuTicks, try watchFigures.cpuTicks, lineCount(watchOutput))
        // Everything counted between the two readings is divided by the time between them, the settling included:
        // dividing by the busy time alone would charge the tray the redraws of the settling as well.
        let elapsed = Date().timeIntervalSince(windowStarted)
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        func perSecond(_ count: Int) -> Double { Double(count) / elapsed }
        return [
            "busy_activities_changed_per_s": perSecond(after.0.activitiesChanged - before.0.activitiesChanged),
            "busy_tray_layout_updated_per_s": perSecond(after.0.layoutUpdated - before.0.layoutUpdated),
            "busy_tray_new_tooltip_per_s": perSecond(after.0.newToolTip - before.0.newToolTip),
            "busy_tray_peak_rss_kb": Double(peakTray),
            "busy_tray_anonymous_before_kb": Double(trayAnonymousBefore),
            "busy_tray_peak_anonymous_kb": Double(peakTrayAnonymous),
            "busy_tray_cpu_percent": Double(after.1 - before.1) / ticksPerSecond / elapsed * 100,
            "busy_watch_lines_per_s": perSecond(after.3 - before.3),
            "busy_watch_peak_rss_kb": Double(peakWatch),
            "busy_watch_cpu_percent": Double(after.2 - before.2) / ticksPerSecond / elapsed * 100,
        ]
    }

    private func lineCount(_ file: URL) -> Int {
        ((try? Data(contentsOf: file)) ?? Data()).count { $0 == UInt8(ascii: "\n") }
    }
}

/// A panel's StatusNotifierWatcher, on a thread of its own: it accepts the tray's registration and counts the
/// signals a host would redraw on, and the service's `ActivitiesChanged`.
private final class PanelStandIn: @unchecked Sendable {
    struct Counts {
        var registrations = 0
        var layoutUpdated = 0
        var newToolTip = 0
        var activitiesChanged = 0
    }

    /// What the watcher's thread and the measurement share.
    private final class Shared: Sendable {
        let counts = Mutex(Counts())
        let stop = Atomic(false)
    }

    private let shared = Shared()
    private let thread: Thread
    var counts: Counts { shared.counts.withLock { $0 } }

    init(_ bus: PrivateBus) throws {
        let connection = try Connection(bus: .address(bus.address))
        guard try connection.requestName("org.kde.StatusNotifierWatcher", flags: .doNotQueue) == .primaryOwner else {
            throw BenchFailure("another watcher is on the bench's bus")
        }
        for rule in [MatchRule(interface: "com.canonical.dbusmenu", member: "LayoutUpdated"),
                     MatchRule(interface: "org.kde.StatusNotifierItem", member: "NewToolTip"),
                     ServiceMembers.activitiesChanged.rule()] {
            try connection.addMatch(rule)
        }
        let shared = shared
        nonisolated(unsafe) let unsafeConnection = connection
        thread = Thread {
            while !shared.stop.load(ordering: .relaxed) {
                guard let message = try? unsafeConnection.nextMessage(timeout: .milliseconds(100)) else { continue }
                switch (message.type, message.member) {
                case (.methodCall, "RegisterStatusNotifierItem"):
                    unsafeConnection.send(message.makeReturn())
                    shared.counts.withLock { $0.registrations += 1 }
                case (.methodCall, _):
                    if message.expectsReply {
                        unsafeConnection.send(message.makeErrorReply(DBusError(.unknownMethod, "not played")))
                    }
                case (.signal, "LayoutUpdated"): shared.counts.withLock { $0.layoutUpdated += 1 }
                case (.signal, "NewToolTip"): shared.counts.withLock { $0.newToolTip += 1 }
                case (.signal, ServiceMembers.activitiesChanged.memberName):
                    shared.counts.withLock { $0.activitiesChanged += 1 }
                default: break
                }
            }
        }
        thread.start()
    }

    deinit { shared.stop.store(true, ordering: .relaxed) }

    func awaitRegistration() throws {
        let deadline = Date().addingTimeInterval(10)
        while counts.registrations == 0 {
            guard Date() < deadline else { throw BenchFailure("the tray did not register with the watcher") }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}
