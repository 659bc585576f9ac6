import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness
import Testing

/// Apps' traffic, counted by the kernel: the real system service attaches its programs to this machine's cgroup
/// tree, and real transfers on loopback (a paced local server, `curl`) run in cgroups the test makes where systemd
/// puts a desktop's apps (`/user.slice/user-UID.slice/user@UID.service/app.slice/app-….scope`). A user's app is
/// private to that user: a listener on the system bus is told of it only once it has read the activities, as root.
/// Every check looks only at the test's own cgroups: another test's traffic may be counted beside it. Not one of
/// the serialized `Integration` suites: its tests mostly wait for transfers, so they run at once.
@Suite("Apps' traffic counted by the kernel",
       .enabled(if: ApplicationCgroup.canBeMade, "counting needs root and a writable cgroup v2 tree"))
struct TrafficTests {
    static let counting = DaemonProcess.noDelays + ["--traffic", "--traffic-loopback", "--log-level", "debug"]
    /// Well above the default threshold of 32768 bytes a second.
    static let fastRate = 262_144

    /// The system service counting on a bus of the test's own.
    static func systemService(_ bus: PrivateBus, _ arguments: [String] = counting) throws -> DaemonProcess {
        try DaemonProcess(bus: bus, arguments: arguments, systemBus: true)
    }

    /// The first record of the `traffic` source in an `ActivitiesChanged` that `matches`.
    static func awaitTraffic(_ listener: SignalListener, timeout: Duration = .seconds(15),
                             _ matches: (ActivityDetails) -> Bool) throws -> ActivityDetails {
        var found: ActivityDetails?
        _ = try listener.next(timeout: timeout) { message in
            guard let report = try? ActivityChangeReport(message) else { return false }
            found = report.changed.first { $0.source == .traffic && matches($0) }
            return found != nil
        }
        guard let found else { throw TestFailure("no traffic activity as awaited within \(timeout)") }
        return found
    }

    /// Waits for `ActivitiesChanged` to end `id`; returns when it came.
    static func awaitEnd(of id: UInt32, _ listener: SignalListener) throws -> ContinuousClock.Instant {
        let ended = try listener.next(timeout: .seconds(15)) { message in
            (try? ActivityChangeReport(message))?.ended.contains(id) == true
        }
        guard ended != nil else { throw TestFailure("activity \(id) did not end") }
        return .now
    }

    /// Every record of the `traffic` source that any `ActivitiesChanged` so far carried.
    static func trafficSeen(_ listener: SignalListener) -> [ActivityDetails] {
        listener.history.flatMap { message in
            ((try? ActivityChangeReport(message))?.changed ?? []).filter { $0.source == .traffic }
        }
    }

    @Test(arguments: [
        // GNOME Shell's launch of firefox-esr.desktop, by another user.
        ("app-gnome-firefox\\x2desr", "firefox-esr", UInt32(4242)),
        ("app-flatpak-org.gnome.Maps", "org.gnome.Maps", UInt32(0)),
    ])
    func anAppsDownloadShowsWithItsAppUserAndRateAndEndsAfterIt(unit: String, app: String, user: UInt32) throws {
        let bus = try PrivateBus()
        let service = try Self.systemService(bus)
        let listener = try SignalListener(bus)
        try listener.readActivities()
        let server = try PacedServer()
        let cgroup = try ApplicationCgroup(desktopApp: unit, user: user)

        let download = try server.download(bytesPerSecond: Self.fastRate, seconds: 6, in: cgroup, as: user, bus: bus)
        let shown = try Self.awaitTraffic(listener) { $0.owner == cgroup.path }
        #expect(shown.application == app && shown.label == app, "\(shown)")
        #expect(shown.user == user && !shown.isCancellable, "\(shown)")
        // Another second of figures: the rate smoothed, the bytes counted both ways.
        let later = try Self.awaitTraffic(listener) { $0.id == shown.id && ($0.done ?? 0) > 0 }
        let rate = try #require(later.rate)
        #expect(Double(rate) > 0.6 * Double(Self.fastRate) && Double(rate) < 1.6 * Double(Self.fastRate),
                "a rate near the transfer's \(Self.fastRate) bytes a second: \(later)")
        #expect((later.received ?? 0) > (later.sent ?? 0) && later.done == (later.received ?? 0) + (later.sent ?? 0),
                "\(later)")

        #expect(download.exitStatus(within: .seconds(20)) == 0)
        let finished = ContinuousClock.now
        let ended = try Self.awaitEnd(of: shown.id, listener)
        #expect(finished.duration(to: ended) >= .seconds(2), "it ends after 3 s below the threshold")
        let client = try RawClient(bus)
        let history = try client.call(ServiceMembers.getHistory.serviceCall(0))
        let entry = try #require(history.first { $0.id == shown.id }, "\(history)")
        #expect(entry.outcome == .ended && entry.source == .traffic && (entry.done ?? 0) > 0, "\(entry)")
        _ = service
    }

    @Test func aSlowTransferShowsNothingWhileAFastOneBesideItDoes() throws {
        let bus = try PrivateBus()
        let service = try Self.systemService(bus)
        let listener = try SignalListener(bus)
        try listener.readActivities()
        let server = try PacedServer()
        let slowApp = try ApplicationCgroup(desktopApp: "app-gnome-slow", user: 0)
        let fastApp = try ApplicationCgroup(desktopApp: "app-gnome-fast", user: 0)

        // 8 KiB a second for 4 s: a fast one would have shown within them.
        let slow = try server.download(bytesPerSecond: 8192, seconds: 4, in: slowApp, bus: bus)
        #expect(slow.exitStatus(within: .seconds(20)) == 0)
        let fast = try server.download(bytesPerSecond: Self.fastRate, seconds: 3, in: fastApp, bus: bus)
        _ = try Self.awaitTraffic(listener) { $0.owner == fastApp.path }
        #expect(!Self.trafficSeen(listener).contains { $0.owner == slowApp.path })
        _ = fast.exitStatus(within: .seconds(20))
        _ = service
    }

    @Test func loopbackCountsOnlyWithItsFlagAnIgnoredAppNeverAndNothingWithoutTraffic() throws {
        let server = try PacedServer()
        for (arguments, state, reason) in [(DaemonProcess.noDelays + ["--traffic"], "counting", ""),
                                           (Self.counting + ["--traffic-ignore", "mail,loopback"], "counting", ""),
                                           (DaemonProcess.noDelays, "off", "--traffic is not given")] {
            let bus = try PrivateBus()
            let service = try Self.systemService(bus, arguments)
            let listener = try SignalListener(bus)
            try listener.readActivities()
            let client = try RawClient(bus)
            #expect(try client.property(ServiceMembers.traffic.name, as: String.self) == state)
            #expect(try client.property(ServiceMembers.trafficReason.name, as: String.self) == reason)
            let app = try ApplicationCgroup(desktopApp: "app-gnome-loopback", user: 0)
            // 4 s at the fast rate: counted, it would have shown within them.
            let download = try server.download(bytesPerSecond: Self.fastRate, seconds: 4, in: app, bus: bus)
            #expect(download.exitStatus(within: .seconds(20)) == 0)
            try listener.settle()
            // Only this test's app: another copy of the suite may be counted beside it.
            #expect(!Self.trafficSeen(listener).contains { $0.owner == app.path }, "\(arguments)")
            #expect(try !client.details().contains { $0.source == .traffic && $0.owner == app.path })
            _ = service
        }
    }

    @Test func withoutThePrivilegeOneLineSaysWhatIsMissingAndTheRestWorks() throws {
        let bus = try PrivateBus()
        // Root without the capabilities that BPF needs.
        let service = try DaemonProcess(
            bus: bus, arguments: Self.counting,
            wrapper: ["/usr/bin/setpriv", "--bounding-set", "-bpf,-net_admin,-sys_admin,-perfmon", "--"],
            systemBus: true)
        let client = try RawClient(bus)
        // A word to compare, and the reason for people beside it, naming what the process lacks.
        #expect(try client.property(ServiceMembers.traffic.name, as: String.self) == "unavailable")
        let reason = try client.property(ServiceMembers.trafficReason.name, as: String.self)
        #expect(reason.contains("lacks CAP_BPF and CAP_NET_ADMIN"), "\(reason)")
        let id = try client.begin("backup")
        try client.end(id)
        let lines = service.log.split(separator: "\n").filter { $0.contains("not counting apps' traffic") }
        #expect(lines.count == 1 && lines[0].contains("lacks CAP_BPF and CAP_NET_ADMIN"), "\(service.log)")
        let status = try runTool(Paths.cli.path, ["status"], bus: bus)
        #expect(status.stdout.contains("traffic: off (the kernel refused"), "\(status)")
    }

    @Test func aKilledServiceLeavesNoProgramAttached() throws {
        let bus = try PrivateBus()
        let service = try Self.systemService(bus)
        try service.awaitLog("counting apps' traffic")
        let line = try #require(service.log.split(separator: "\n").first { $0.contains("(programs ") })
        let ids = line.split(separator: "(programs ")[1].split(separator: ";")[0]
            .split(separator: " and ").map(String.init)
        #expect(ids.count == 2)
        for id in ids {
            let shown = try runTool("/usr/sbin/bpftool", ["prog", "show", "id", id], bus: nil)
            #expect(shown.succeeded && shown.stdout.contains("cgroup_skb"), "\(shown)")
        }
        service.send(SIGKILL)
        _ = service.exitStatus()
        // The kernel frees a program once its link and descriptors are gone, shortly after the process.
        let deadline = ContinuousClock.now + .seconds(10)
        var remaining = ids
        while !remaining.isEmpty, ContinuousClock.now < deadline {
            remaining = try remaining.filter { try runTool("/usr/sbin/bpftool", ["prog", "show", "id", $0], bus: nil).succeeded }
            if !remaining.isEmpty { usleep(50_000) }
        }
        #expect(remaining.isEmpty, "programs \(remaining) stayed after the service was killed")
    }

    @Test func aRunInACountedCgroupTakesItsRateInsteadOfASecondRow() throws {
        let system = try PrivateBus()
        let session = try PrivateBus()
        let systemService = try Self.systemService(system)
        let sessionService = try DaemonProcess(bus: session, arguments: DaemonProcess.noDelays + ["--traffic"],
                                               environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.address])
        let listener = try SignalListener(session)
        let server = try PacedServer()
        let cgroup = try ApplicationCgroup(desktopApp: "app-gnome-rsync", user: 0)

        let url = "http://127.0.0.1:\(server.port)/\(Self.fastRate)/6"
        let run = try BackgroundProcess(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"echo $$ > "$0/cgroup.procs" && exec "$1" run --label sync -- curl -s -o /dev/null "$2""#,
             cgroup.unit.path, Paths.cli.path, url], bus: session)
        let measured = try listener.next(timeout: .seconds(15)) { message in
            (try? ActivityChangeReport(message))?.changed.contains { $0.label == "sync" && ($0.rate ?? 0) > 0 } == true
        }
        #expect(measured != nil, "the run's activity took the measured rate")
        let client = try RawClient(session)
        #expect(try client.property("Traffic", as: String.self) == "counting")
        let rows = try client.details()
        #expect(rows.filter { $0.label == "sync" }.count == 1, "\(rows)")
        #expect(!rows.contains { $0.source == .traffic && $0.owner.hasSuffix(cgroup.path) }, "\(rows)")
        #expect(!Self.trafficSeen(listener).contains { $0.owner.hasSuffix(cgroup.path) })
        #expect(run.exitStatus(within: .seconds(20)) == 0)
        _ = (systemService, sessionService)
    }

    @Test func aRootRunOnTheSystemBusTakesItsCgroupsRateToo() throws {
        let bus = try PrivateBus()
        let service = try Self.systemService(bus)
        let listener = try SignalListener(bus)
        let server = try PacedServer()
        let cgroup = try ApplicationCgroup(unitName: "backup.service")

        let url = "http://127.0.0.1:\(server.port)/\(Self.fastRate)/6"
        let run = try BackgroundProcess(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"echo $$ > "$0/cgroup.procs" && exec "$1" run --system --label sync -- curl -s -o /dev/null "$2""#,
             cgroup.unit.path, Paths.cli.path, url], bus: bus, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        let measured = try listener.next(timeout: .seconds(15)) { message in
            (try? ActivityChangeReport(message))?.changed.contains { $0.label == "sync" && ($0.rate ?? 0) > 0 } == true
        }
        #expect(measured != nil, "the run's activity took the measured rate")
        let rows = try RawClient(bus).details()
        #expect(!rows.contains { $0.source == .traffic && $0.owner == cgroup.path }, "\(rows)")
        #expect(!Self.trafficSeen(listener).contains { $0.owner == cgroup.path })
        #expect(run.exitStatus(within: .seconds(20)) == 0)
        _ = service
    }

    @Test func aSessionWithTrafficStartsTheSystemServiceByActivation() throws {
        // The system bus's activation file, as installed, but for the test's build and bus: the service is
        // started by the bus, on it (DBUS_STARTER_ADDRESS), with --traffic.
        let services = try temporaryDirectory("system-services")
        defer { try? FileManager.default.removeItem(at: services) }
        let stateDirectory = services.appendingPathComponent("state")
        try """
            [D-BUS Service]
            Name=org.example.NetworkActivity
            Exec=/bin/sh -c 'DBUS_SYSTEM_BUS_ADDRESS=$DBUS_STARTER_ADDRESS exec \(Paths.daemon.path) --system --traffic --traffic-loopback --state-dir \(stateDirectory.path)'

            """.write(to: services.appendingPathComponent("org.example.NetworkActivity.service"), atomically: true,
                      encoding: .utf8)
        let system = try PrivateBus(services: .folder(services))
        let watcher = try system.connect()
        try watcher.addMatch(MatchRule(sender: Connection.busDriverName, member: "NameOwnerChanged",
                                       arguments: [0: ServiceNames.busName.rawValue]))
        let session = try PrivateBus()
        let sessionService = try DaemonProcess(bus: session, arguments: DaemonProcess.noDelays + ["--traffic"],
                                               environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.address])
        var started = false
        while !started, let signal = try watcher.nextMessage(timeout: .seconds(15)) {
            var arguments = signal.arguments()
            _ = try? arguments.read(String.self)
            _ = try? arguments.read(String.self)
            started = (try? arguments.read(String.self))?.isEmpty == false
        }
        #expect(started, "the session's service did not start the system service")
        let client = try RawClient(session)
        let deadline = ContinuousClock.now + .seconds(15)
        var state = try client.property("Traffic", as: String.self)
        while state != "counting", ContinuousClock.now < deadline {
            usleep(50_000)
            state = try client.property("Traffic", as: String.self)
        }
        #expect(state == "counting", "the session's Traffic once the system service runs")
        // The activated service is nobody's child here: stopped as systemd would.
        let systemPID = try watcher.processID(of: ServiceNames.busName)
        kill(pid_t(systemPID), SIGTERM)
        _ = sessionService
    }

    @Test func aSessionShowsItsOwnUsersAppsAndTheMachinesServicesNeverAnothersApps() throws {
        // A system-like bus, with the project's policy, that another Unix user may call too.
        let system = try systemLikeBus(including: [systemPolicy])
        let session = try PrivateBus()
        let systemService = try Self.systemService(system)
        // The session's user is the test's: root, whose slice is user-0.slice.
        let sessionService = try DaemonProcess(bus: session, arguments: DaemonProcess.noDelays + ["--traffic"],
                                               environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.address])
        let systemListener = try SignalListener(system)
        let sessionListener = try SignalListener(session)
        // The person's desktop: the app's desktop file, and the tray in a host's place.
        let dataDirectory = session.directory.appendingPathComponent("share")
        let applications = dataDirectory.appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Own Browser\nIcon=web-browser\n"
            .write(to: applications.appendingPathComponent("own.desktop"), atomically: true, encoding: .utf8)
        let desktop = ["XDG_DATA_DIRS": dataDirectory.path, "HOME": session.directory.path]
        let watcher = try TrayProcess.watcher(session)
        let host = try Integration.TrayMenuTests.menuHost(session)
        let tray = try TrayProcess(session, environment: desktop)
        let server = try PacedServer()
        let own = try ApplicationCgroup(desktopApp: "app-gnome-own", user: 0)
        let others = try ApplicationCgroup(desktopApp: "app-gnome-others", user: 4343)
        let machines = try ApplicationCgroup(unitName: "apt-daily.service", slice: "system.slice")

        let downloads = try [(own, UInt32(0)), (others, 4343), (machines, 0)].map { cgroup, user in
            try server.download(bytesPerSecond: Self.fastRate, seconds: 8, in: cgroup, as: user, bus: system)
        }
        // The system service counts all three, and broadcasts only the machine's service: a user's apps are
        // read with GetActivities, by that user (or root) alone.
        _ = try Self.awaitTraffic(systemListener) { $0.owner == machines.path }
        let root = try RawClient(system)
        let deadline = ContinuousClock.now + .seconds(15)
        var counted: Set<String> = []
        while counted.count < 3, ContinuousClock.now < deadline {
            counted = Set(try root.details().map(\.owner)).intersection([own.path, others.path, machines.path])
            if counted.count < 3 { usleep(100_000) }
        }
        #expect(counted.count == 3, "root reads all three: \(counted)")
        #expect(!Self.trafficSeen(systemListener).contains { $0.owner == own.path || $0.owner == others.path })
        let stranger = try ThrowawayUser()
        let strangers = try dbusSend(as: stranger.name, system, ServiceMembers.getActivities.name)
        #expect(strangers.succeeded && strangers.stdout.contains("apt-daily.service")
                && !strangers.stdout.contains(own.unit.lastPathComponent)
                && !strangers.stdout.contains(others.unit.lastPathComponent),
                "another user reads the machine's services only: \(strangers)")
        // The session asks again at each change: two later changes are from a list that holds all three.
        for _ in 0..<2 { _ = try Self.awaitTraffic(sessionListener) { _ in true } }
        let rows = try RawClient(session).details().filter { $0.source == .traffic }
        let owners = Set(rows.map(\.owner))
        #expect(owners.contains("system:" + own.path) && owners.contains("system:" + machines.path), "\(rows)")
        #expect(rows.first { $0.owner == "system:" + machines.path }?.application == "apt-daily.service")
        #expect(!owners.contains("system:" + others.path), "another user's app: \(rows)")
        #expect(!Self.trafficSeen(sessionListener).contains { $0.owner.hasSuffix(others.path) })
        // Shown like any activity, marked as measured, with the app's name and icon from its desktop file.
        try watcher.awaitCall("RegisterStatusNotifierItem")
        let layout = try Integration.TrayMenuTests.awaitLayout(session, tray, host, containing: "'Own Browser (measured) — ")
        #expect(layout.contains("'icon-name': <'web-browser'>"), "\(layout)")
        #expect(!layout.contains("others"), "\(layout)")
        let status = try runTool(Paths.cli.path, ["status"], bus: session, environment: desktop)
        #expect(status.stdout.contains("traffic: counting") && status.stdout.contains(" Own Browser ")
                && status.stdout.contains(" traffic ") && !status.stdout.contains("others"), "\(status)")
        // The data used, as the session shows it: the session passes the call on as its user, root here, who
        // reads everyone's, as on the system bus (the system service answers any other user their own alone:
        // DataUsageTests).
        let sessionUsage = try runTool(Paths.cli.path, ["usage", "--json"], bus: session, environment: desktop)
        let systemUsage = try runTool(Paths.cli.path, ["usage", "--system", "--json"], bus: system)
        #expect(sessionUsage.succeeded && sessionUsage.stdout.contains("\"own")
                && sessionUsage.stdout.contains("\"apt-daily.service\"")
                && sessionUsage.stdout.contains("\"private-to\":4343"), "\(sessionUsage)")
        #expect(systemUsage.stdout.contains("\"others") && systemUsage.stdout.contains("\"private-to\":4343"),
                "\(systemUsage)")
        _ = try Integration.TrayMenuTests.menuCall(session, tray, "AboutToShow", ["0"])
        let usedToday = try Integration.TrayMenuTests.awaitLayout(session, tray, host, containing: "'own — ")
        #expect(usedToday.contains("'apt-daily.service — "), "\(usedToday)")
        for download in downloads { _ = download.exitStatus(within: .seconds(20)) }
        _ = (systemService, sessionService)
    }

    /// A panel on the session bus reads the activities once, then follows `ActivitiesChanged` alone: its user's
    /// own app, laid out as a desktop lays it out, appears, moves and goes; so it does in `watch`.
    @Test func aPanelOnTheSessionBusSeesItsUsersOwnAppAppearMoveAndGo() throws {
        let services = try SessionOverSystem(systemArguments: Self.counting)
        let (system, session) = (services.system, services.session)
        let panel = try SignalListener(session)
        try panel.readActivities()
        let watch = try BackgroundProcess(Paths.cli, ["watch", "--format", "json"], bus: session)
        let server = try PacedServer()
        // The session's user is the test's, root: its apps are in user-0.slice.
        let app = try ApplicationCgroup(desktopApp: "app-gnome-backuptool", user: 0)
        let owner = ServiceNames.systemOwnerPrefix + app.path

        let download = try server.download(bytesPerSecond: Self.fastRate, seconds: 7, in: app, bus: system)
        var done: [UInt64] = []
        let shown = try Self.awaitTraffic(panel, timeout: .seconds(20)) { $0.owner == owner }
        while done.count < 3 {
            let row = try Self.awaitTraffic(panel) { $0.id == shown.id && ($0.done ?? 0) > (done.last ?? 0) }
            done.append(row.done ?? 0)
        }
        #expect(done == done.sorted() && Set(done).count == 3, "\(done)")
        #expect(download.exitStatus(within: .seconds(20)) == 0)
        _ = try Self.awaitEnd(of: shown.id, panel)
        // watch printed the row with as many growing figures, each state a line.
        var watchedApp = false
        _ = try watch.awaitLine(timeout: .seconds(10), "a state with the app, then one without it") { line in
            if line.contains(app.unit.lastPathComponent) { watchedApp = true }
            return watchedApp && line.hasPrefix("{") && !line.contains(app.unit.lastPathComponent)
        }
        let watched = Set(watch.lines.filter { $0.contains(app.unit.lastPathComponent) }.compactMap { line in
            line.split(separator: "\"done\":").dropFirst().first.flatMap { UInt64($0.prefix { $0.isNumber }) }
        })
        #expect(watched.count >= 3, "\(watch.lines)")
        _ = services
    }

    /// On the system bus, a third user that listens to all the service's signals and reads what anyone may read
    /// learns nothing of another user's app while it moves: no signal, a count of 0, no row, an unknown id.
    @Test func aThirdUserOnTheSystemBusLearnsNothingOfAnotherUsersApp() throws {
        let system = try systemLikeBus(including: [systemPolicy])
        // This test's app alone: the other tests' machine services, counted too, are everyone's to hear.
        let service = try Self.systemService(system, Self.counting + ["--traffic-apps", "private"])
        let stranger = try ThrowawayUser()
        let monitor = try BackgroundProcess(
            URL(fileURLWithPath: "/usr/sbin/runuser"),
            // The bus is the session one of the tools' environment; stdbuf: each signal printed as it comes.
            ["-u", stranger.name, "--", "/usr/bin/stdbuf", "-oL", "/usr/bin/gdbus", "monitor", "--session", "--dest",
             ServiceNames.busName.rawValue],
            bus: system)
        _ = try monitor.awaitLine(timeout: .seconds(10), "gdbus monitoring the service") { $0.contains("is owned by") }
        let root = try SignalListener(system)
        try root.readActivities()
        let server = try PacedServer()
        let app = try ApplicationCgroup(desktopApp: "app-gnome-private", user: 4343)

        let download = try server.download(bytesPerSecond: Self.fastRate, seconds: 6, in: app, as: 4343, bus: system)
        // Root is told of it, alone.
        let shown = try Self.awaitTraffic(root) { $0.owner == app.path }
        #expect(shown.user == 4343)
        let count = try dbusSend(as: stranger.name, system, "org.freedesktop.DBus.Properties.Get",
                                 "string:\(ServiceNames.interface)", "string:\(ServiceMembers.activeCount.name)")
        #expect(count.succeeded && count.stdout.contains("uint32 0"), "\(count)")
        let rows = try dbusSend(as: stranger.name, system, ServiceMembers.getActivities.name)
        #expect(rows.succeeded && !rows.stdout.contains(app.unit.lastPathComponent), "\(rows)")
        let ended = try dbusSend(as: stranger.name, system, ServiceMembers.end.name, "uint32:\(shown.id)")
        #expect(!ended.succeeded && ended.stderr.contains("UnknownActivity"), "\(ended)")
        #expect(download.exitStatus(within: .seconds(20)) == 0)
        _ = try Self.awaitEnd(of: shown.id, root)

        // A public activity after it: once the monitor prints its label, it has printed every signal before it.
        let marker = try dbusSend(system, ServiceMembers.beginWithTimeout.name, "string:marker", "uint32:60")
        #expect(marker.succeeded, "\(marker)")
        _ = try monitor.awaitLine(timeout: .seconds(10), "the marker's ActivitiesChanged") { $0.contains("marker") }
        let signals = monitor.lines.filter { $0.contains("\(ServiceNames.objectPath.rawValue): ") }
        let beforeMarker = signals.prefix { !$0.contains("marker") }
        #expect(!beforeMarker.contains { $0.contains("ActivitiesChanged") || $0.contains("HistoryChanged")
                                         || $0.contains("(false,)") || $0.contains(app.unit.lastPathComponent) }
                && beforeMarker.filter { $0.contains("VisibilityChanged") }.count <= 1,
                "the stranger heard: \(beforeMarker)")
        _ = service
    }

    /// The system unit's `AmbientCapabilities=`, as setpriv names them (`+bpf,+net_admin,…`).
    static func unitCapabilities() throws -> String {
        let unit = try String(contentsOf: Paths.dbusFolder.appendingPathComponent("netactivityd-system.service"),
                              encoding: .utf8)
        let line = try #require(unit.split(separator: "\n").first { $0.hasPrefix("AmbientCapabilities=") })
        return line.dropFirst("AmbientCapabilities=".count).split(separator: " ")
            .map { "+" + $0.dropFirst("CAP_".count).lowercased() }.joined(separator: ",")
    }

    /// The service started exactly as the system unit starts it: a system user of its own, the unit's capabilities
    /// and nothing more, no new privileges, and the unit's system call filter (any other call kills it), counts an
    /// app's traffic and serves.
    @Test func theServiceCountsAsTheSystemUnitRunsIt() throws {
        let serviceUser = try ThrowawayUser()
        let uid = try userID(of: serviceUser.name)
        let folder = try temporaryDirectory("as-the-unit")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The project's policy names the packaged user, netactivity; this test's user owns the name the same way.
        let ownership = folder.appendingPathComponent("ownership.conf")
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig><policy user="\(serviceUser.name)"><allow own="\(ServiceNames.busName)"/></policy></busconfig>
            """.write(to: ownership, atomically: true, encoding: .utf8)
        let system = try systemLikeBus(including: [systemPolicy, ownership])
        let state = folder.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        chown(state.path, uid, uid)
        chmod(folder.path, 0o755)
        let capabilities = try Self.unitCapabilities()
        let unit = folder.appendingPathComponent("netactivityd.service")
        try FileManager.default.copyItem(at: Paths.dbusFolder.appendingPathComponent("netactivityd-system.service"),
                                         to: unit)
        // Run as the unit's user, from copies it can reach (the clone may be in a private folder).
        let service = try DaemonProcess(
            bus: system, arguments: Self.counting + ["--state-dir", state.path],
            executable: ReachableCopies.of(Paths.daemon),
            wrapper: ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "--no-new-privs",
                      "--inh-caps=-all,\(capabilities)", "--ambient-caps=-all,\(capabilities)",
                      "--bounding-set=-all,\(capabilities)", "--",
                      "/usr/bin/python3", ReachableCopies.of(Paths.testTools.appendingPathComponent("as-the-unit-runs.py")).path,
                      unit.path, "--"],
            systemBus: true)
        let root = try SignalListener(system)
        try root.readActivities()
        let client = try RawClient(system)
        #expect(try client.property("Traffic", as: String.self) == "counting", "\(service.log)")
        let status = try String(contentsOfFile: "/proc/\(service.processID)/status", encoding: .utf8)
        #expect(status.contains("Uid:\t\(uid)\t\(uid)\t\(uid)\t\(uid)") && status.contains("NoNewPrivs:\t1")
                && status.contains("Seccomp:\t2"), "\(status)")

        let server = try PacedServer()
        let app = try ApplicationCgroup(desktopApp: "app-gnome-hardened", user: 4242)
        let download = try server.download(bytesPerSecond: Self.fastRate, seconds: 5, in: app, as: 4242, bus: system)
        let shown = try Self.awaitTraffic(root) { $0.owner == app.path }
        #expect(shown.user == 4242 && shown.application == "hardened")
        #expect(download.exitStatus(within: .seconds(20)) == 0)
        _ = try Self.awaitEnd(of: shown.id, root)
        // It serves on and saves its state in its own directory, as itself.
        let id = try client.begin("backup")
        try client.end(id)
        #expect(service.isRunning, "\(service.log)")
    }
}
