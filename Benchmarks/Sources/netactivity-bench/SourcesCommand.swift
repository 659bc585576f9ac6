// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness
import Synchronization

/// What following the sources of activities costs the daemon (docs/performance.md): idle while PackageKit is not
/// on the system bus and nobody sends launcher entries, then while 100 launcher entries, then 100 PackageKit
/// transactions, change 10 times a second.
struct SourcesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "Measures the daemon's CPU and wake-ups with its sources absent, and under their load.",
        discussion: """
            Starts a dbus-daemon as the session bus and another as the system bus, and the release build's \
            netactivityd (delays 0) following both. First --idle seconds with neither PackageKit nor any launcher \
            entry on the buses: the daemon's CPU ticks and wake-ups (its loop's thread's context switches). Then \
            --busy seconds of --entries launcher entries, each from a connection of its own, updated --rate times \
            a second; then as long with a stand-in for PackageKit on the system bus, owning its name, answering \
            GetTransactionList and GetAll, and sending each of --entries downloading transactions' \
            PropertiesChanged --rate times a second. For each: the daemon's CPU, wake-ups a second, and the \
            ActivitiesChanged it sent a second.
            """)

    @Option(help: ArgumentHelp("The netactivityd to measure (default: the release build's).", valueName: "path"))
    var daemon: String?
    @Option(help: "Seconds over which the idle daemon is watched.") var idle = 10.0
    @Option(help: "Seconds each load runs.") var busy = 10.0
    @Option(help: "Launcher entries, and PackageKit transactions, at once.") var entries = 100
    @Option(help: "Changes a second of each.") var rate = 10
    @Flag(help: "Print the figures as JSON.") var json = false

    func validate() throws {
        guard idle > 0, busy > 0, entries >= 1, rate >= 1, rate <= 50 else {
            throw ValidationError("--idle and --busy take seconds above 0, --entries at least 1, --rate 1 to 50.")
        }
    }

    func run() throws {
        let session = try PrivateBus()
        let system = try PrivateBus(type: "system")
        let applications = (0..<entries).map { "org.example.BenchApp\($0)" }
        let service = try DaemonProcess(
            bus: session, arguments: DaemonProcess.noDelays + ["--launcher-apps", applications.joined(separator: ",")],
            executable: try DaemonExecutable.find(daemon), environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.address])
        try service.awaitLog("following org.example.NetworkActivity on the system bus")
        let figures = service.figures
        let listener = try SignalListener(session)
        var results: [String: Double] = [:]

        // Idle: the first turns of the loop are over once it has answered a call, and the caller stays connected
        // (a connection that left would wake it with NameOwnerChanged).
        let caller = try RawClient(session)
        _ = try caller.activeCount
        // The reply went out before the loop finished its turn and went back to sleep, which counts a switch: the
        // count starts once it has stood still for a while (a slow build, under a sanitizer, takes longer).
        try awaitStill(figures)
        let idleBefore = (try figures.cpuTicks, try figures.mainThreadContextSwitches)
        Thread.sleep(forTimeInterval: idle)
        results["idle_ticks"] = Double(try figures.cpuTicks - idleBefore.0)
        results["idle_wakeups"] = Double(try figures.mainThreadContextSwitches - idleBefore.1)
        _ = caller

        var launchers = try (0..<entries).map { _ in try session.connect() }
        let launcher = try measure(service, session, listener) { round in
            for (index, connection) in launchers.enumerated() {
                let signal = Message.signal(path: "/com/canonical/unity/launcherentry/1",
                                            interface: "com.canonical.Unity.LauncherEntry", member: "Update")
                signal.appendArguments { writer in
                    writer.append("application://\(applications[index]).desktop")
                    writer.append(["progress": Variant(Double(round % 100) / 100), "progress-visible": Variant(true)])
                }
                _ = connection.send(signal)
                connection.flush()
            }
        }
        results.merge(launcher.named("launcher")) { $1 }
        // The senders leave, and their activities with them.
        launchers = []

        let packageKit = try PackageKitStandIn(system, transactions: entries)
        try service.awaitLog("following PackageKit's transactions")
        let transactions = try measure(service, session, listener) { round in
            packageKit.changeEach(percent: UInt32(round % 100))
        }
        results.merge(transactions.named("packagekit")) { $1 }

        if json {
            print(String(decoding: try JSONSerialization.data(withJSONObject: results, options: [.sortedKeys]),
                         as: UTF8.self))
        } else {
            print(String(format: """
                idle, sources absent (%.0f s): %.0f CPU ticks, %.0f wake-ups
                %d launcher entries, %d changes/s each: daemon CPU %.1f %%, %.1f wake-ups/s, %.1f ActivitiesChanged/s
                %d PackageKit transactions, %d changes/s each: daemon CPU %.1f %%, %.1f wake-ups/s, %.1f ActivitiesChanged/s
                """, idle, results["idle_ticks"] ?? 0, results["idle_wakeups"] ?? 0,
                entries, rate, results["launcher_cpu_percent"] ?? 0, results["launcher_wakeups_per_s"] ?? 0,
                results["launcher_activities_changed_per_s"] ?? 0,
                entries, rate, results["packagekit_cpu_percent"] ?? 0, results["packagekit_wakeups_per_s"] ?? 0,
                results["packagekit_activities_changed_per_s"] ?? 0))
        }
        _ = packageKit
    }

    private struct Load {
        var cpuPercent: Double
        var wakeUpsPerSecond: Double
        var activitiesChangedPerSecond: Double
        var activities: Double

        func named(_ prefix: String) -> [String: Double] {
            ["\(prefix)_cpu_percent": cpuPercent, "\(prefix)_wakeups_per_s": wakeUpsPerSecond,
             "\(prefix)_activities_changed_per_s": activitiesChangedPerSecond, "\(prefix)_activities": activities]
        }
    }

    /// Runs `change` `rate` times a second for `busy` seconds, and reads what the daemon spent meanwhile.
    private func measure(
        _ service: DaemonProcess, _ bus: PrivateBus, _ listener: SignalListener, change: (Int) throws -> Void
    ) throws
        -> Load
    {
        try listener.settle()
        let counted = listener.history.count
        let figures = service.figures
        let before = (try figures.cpuTicks, try figures.mainThreadContextSwitches)
        let started = Date()
        var round = 0
        while Date().timeIntervalSince(started) < busy {
            round += 1
            try change(round)
            let next = started.addingTimeInterval(Double(round) / Double(rate))
            Thread.sleep(forTimeInterval: max(0, next.timeIntervalSinceNow))
        }
        let elapsed = Date().timeIntervalSince(started)
        let after = (try figures.cpuTicks, try figures.mainThreadContextSwitches)
        let activities = try RawClient(bus).details().count
        try listener.settle()
        let changes = listener.history.dropFirst(counted).filter { ServiceMembers.activitiesChanged.matches($0) }.count
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        return Load(cpuPercent: Double(after.0 - before.0) / ticksPerSecond / elapsed * 100,
                    wakeUpsPerSecond: Double(after.1 - before.1) / elapsed,
                    activitiesChangedPerSecond: Double(changes) / elapsed, activities: Double(activities))
    }
}

/// PackageKit as the daemon sees it, played on the system bus: it owns `org.freedesktop.PackageKit`, lists its
/// transactions, answers `GetAll` of each as a download, and sends their `PropertiesChanged` when told, all from a
/// thread of its own, which alone uses its connection.
private final class PackageKitStandIn: Sendable {
    private final class Shared: Sendable {
        let changes = Mutex<[UInt32]>([])
        let stop = Atomic(false)
    }

    private let shared = Shared()

    init(_ bus: PrivateBus, transactions: Int) throws {
        let connection = try bus.connect()
        guard try connection.requestName("org.freedesktop.PackageKit", flags: .doNotQueue) == .primaryOwner else {
            throw BenchFailure("org.freedesktop.PackageKit is owned already")
        }
        let paths = (0..<transactions).compactMap { try? ObjectPath("/\($0 + 1)_bench") }
        let shared = shared
        nonisolated(unsafe) let unsafeConnection = connection
        Thread {
            while !shared.stop.load(ordering: .relaxed) {
                for percent in shared.changes.withLock({ changes in defer { changes = [] }; return changes }) {
                    for path in paths {
                        let signal = Message.signal(path: path, interface: StandardInterface.properties,
                                                    member: StandardInterface.propertiesChanged.name)
                        signal.appendArguments { writer in
                            writer.append("org.freedesktop.PackageKit.Transaction")
                            writer.append(["Percentage": Variant(percent),
                                           "Speed": Variant(UInt32(8_000_000 + percent))])
                            writer.append([String]())
                        }
                        unsafeConnection.send(signal)
                    }
                    unsafeConnection.flush()
                }
                guard let message = try? unsafeConnection.nextMessage(timeout: .milliseconds(5)),
                      message.type == .methodCall, message.expectsReply
                else { continue }
                switch message.member {
                case PackageKitInterface.getTransactionList.name.rawValue:
                    unsafeConnection.send(message.makeReturn(with: paths))
                case StandardInterface.getAll.name.rawValue:
                    unsafeConnection.send(message.makeReturn(with: [
                        "Role": Variant(UInt32(25)), "Status": Variant(UInt32(8)), "Percentage": Variant(UInt32(0)),
                        "LastPackage": Variant("bench;1;all;bench"), "Uid": Variant(UInt32(getuid())),
                        "Sender": Variant(""), "Speed": Variant(UInt32(8_000_000)),
                    ]))
                default:
                    unsafeConnection.send(message.makeErrorReply(DBusError(.unknownMethod, "not played")))
                }
            }
        }.start()
    }

    deinit { shared.stop.store(true, ordering: .relaxed) }

    /// Has every transaction say its percent is now `percent`.
    func changeEach(percent: UInt32) {
        shared.changes.withLock { $0.append(percent) }
    }
}

/// Waits until the daemon's loop's thread has not been woken for 200 ms, for 10 s at most.
func awaitStill(_ figures: ProcessFigures) throws {
    let deadline = Date().addingTimeInterval(10)
    var last = try figures.mainThreadContextSwitches
    while Date() < deadline {
        Thread.sleep(forTimeInterval: 0.2)
        let now = try figures.mainThreadContextSwitches
        if now == last { return }
        last = now
    }
    throw BenchFailure("the daemon's loop did not come to rest within 10 s")
}
