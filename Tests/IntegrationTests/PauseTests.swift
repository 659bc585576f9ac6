import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness
import Testing

/// Pausing an app's network: the real system service drops a paused app's packets in the kernel. Downloads cross
/// a real interface (`VethLink`: a veth pair between two network namespaces the test makes, never loopback) from a
/// paced server, into files whose size is what the app received; apps run as a throwaway user in cgroups laid
/// out as systemd lays a desktop's, and `busctl` (not this project's code) asks as that user, another, or root, on
/// a bus with the system bus's policy and the project's.
/// Not one of the serialized suites (everything it looks at is its own), and run in a process beside the data
/// usage tests' (`Tests/run-parts.sh`): its tests block their threads while transfers run, which the library's tests
/// must not wait behind. Its own tests one at a time: each starts a service, two namespaces, servers, downloads and
/// users, and all five at once beside the rest of the suite load the machine for little gain.
@Suite("Pausing an app's network", .serialized,
       .enabled(if: ApplicationCgroup.canBeMade, "pausing needs root and a writable cgroup v2 tree"))
struct PauseTests {
    static let rate = 262_144

    /// One app's download into a file of the test's own, which the app's user may write.
    final class Download {
        let cgroup: ApplicationCgroup
        let file: URL
        let process: BackgroundProcess
        let seconds: Double

        init(_ server: PacedServer, _ link: VethLink, app unit: String, user: UInt32, seconds: Double,
             bus: PrivateBus, cgroup: ApplicationCgroup? = nil) throws {
            self.cgroup = try cgroup ?? ApplicationCgroup(desktopApp: unit, user: user)
            self.seconds = seconds
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("netactivity-pause-\(getpid())-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            chmod(folder.path, 0o777)
            file = folder.appendingPathComponent("body")
            process = try server.download(bytesPerSecond: PauseTests.rate, seconds: seconds, in: self.cgroup,
                                          as: user, namespace: link.onAppSide, output: file.path, bus: bus)
        }

        deinit {
            process.send(SIGKILL)
            _ = process.exitStatus(within: .seconds(10))
            try? FileManager.default.removeItem(at: file.deletingLastPathComponent())
        }

        /// The bytes the app has received so far.
        var size: UInt64 {
            var status = stat()
            return stat(file.path, &status) == 0 ? UInt64(status.st_size) : 0
        }

        /// Waits until it has more than `bytes`; returns when, nil when it did not within `timeout`. (A file's
        /// growth sends no signal: it is looked at, often, until the deadline.)
        func awaitGrowth(beyond bytes: UInt64, within timeout: Duration) -> ContinuousClock.Instant? {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if size > bytes { return .now }
                usleep(20_000)
            }
            return size > bytes ? .now : nil
        }

        var wholeBody: UInt64 { PacedServer.body(bytesPerSecond: PauseTests.rate, seconds: seconds) }
    }

    /// What each test starts: the system service counting, on a bus with the system bus's policy and the
    /// project's; a listener that has read the activities, as root; the veth pair, and a paced server on its far
    /// side.
    struct Scene {
        let bus: PrivateBus
        let service: DaemonProcess
        let listener: SignalListener
        let link: VethLink
        let server: PacedServer

        init() throws {
            bus = try systemLikeBus(including: [systemPolicy])
            service = try PauseTests.systemService(bus)
            listener = try SignalListener(bus)
            try listener.readActivities()
            link = try VethLink()
            server = try PacedServer(address: VethLink.serverAddress, namespace: link.onServerSide)
        }
    }

    static let counting = DaemonProcess.noDelays + ["--traffic", "--log-level", "debug"]

    static func systemService(_ bus: PrivateBus) throws -> DaemonProcess {
        try DaemonProcess(bus: bus, arguments: counting, systemBus: true)
    }

    /// `busctl call` of `Pause` or `Resume` as `user` (nil: root, the test's own).
    static func call(_ member: String, _ id: UInt32, as user: ThrowawayUser?, _ bus: PrivateBus) throws -> ToolResult {
        let busctl = ["/usr/bin/busctl", "--address=\(bus.address)", "call", "org.example.NetworkActivity",
                      "/org/example/NetworkActivity/Pause", "org.example.NetworkActivity.Pause", member, "u", "\(id)"]
        guard let user else { return try runTool(busctl[0], Array(busctl.dropFirst()), bus: bus) }
        return try runTool("/usr/sbin/runuser", ["-u", user.name, "--"] + busctl, bus: bus)
    }

    /// The activity of `cgroup`'s traffic once it shows, as root reads it.
    static func awaitActivity(of cgroup: ApplicationCgroup, _ listener: SignalListener,
                              _ matches: (ActivityDetails) -> Bool = { _ in true }) throws -> ActivityDetails {
        try TrafficTests.awaitTraffic(listener, timeout: .seconds(20)) { $0.owner == cgroup.path && matches($0) }
    }

    @Test func aPausedAppReceivesNothingUntilResumedThenFinishesWithEveryByteWhileAnotherNeverStops() throws {
        let scene = try Scene()
        let (bus, service, listener, link, server) = (scene.bus, scene.service, scene.listener, scene.link, scene.server)
        let person = try ThrowawayUser()
        let podcasts = try Download(server, link, app: "app-gnome-podcasts", user: try person.uid, seconds: 10,
                                    bus: bus)
        let browser = try Download(server, link, app: "app-gnome-firefox\\x2desr", user: try person.uid,
                                   seconds: 10, bus: bus)
        let shown = try Self.awaitActivity(of: podcasts.cgroup, listener)
        #expect(shown.isPaused == false, "a measured app's record says it is not paused: \(shown)")

        let paused = try Self.call("Pause", shown.id, as: person, bus)
        #expect(paused.succeeded, "\(paused)")
        let pausedAt = ContinuousClock.now
        let record = try Self.awaitActivity(of: podcasts.cgroup, listener) { $0.isPaused == true }
        #expect(record.id == shown.id && record.rate == 0, "\(record)")
        // Within a second nothing more arrives; four seconds later still nothing, while the other app goes on.
        Thread.sleep(until: Date.now.addingTimeInterval(1))
        let stopped = podcasts.size
        let browserBefore = browser.size
        Thread.sleep(until: Date.now.addingTimeInterval(4))
        #expect(podcasts.size == stopped, "a paused app received \(podcasts.size - stopped) bytes")
        #expect(browser.size > browserBefore, "the app beside it stopped too")
        #expect(stopped < podcasts.wholeBody)

        let resumed = try Self.call("Resume", shown.id, as: person, bus)
        #expect(resumed.succeeded, "\(resumed)")
        let resumedAt = ContinuousClock.now
        let moving = podcasts.awaitGrowth(beyond: stopped, within: .seconds(8))
        #expect(moving != nil, "nothing arrived within 8 s of Resume, after a pause of \(pausedAt.duration(to: resumedAt))")
        let record2 = try Self.awaitActivity(of: podcasts.cgroup, listener) { $0.isPaused == false }
        #expect(record2.id == shown.id, "the same activity goes on: \(record2)")
        #expect(podcasts.process.exitStatus(within: .seconds(60)) == 0, "\(service.log.suffix(2_000))")
        #expect(podcasts.size == podcasts.wholeBody)
        #expect(browser.process.exitStatus(within: .seconds(30)) == 0 && browser.size == browser.wholeBody)
    }

    @Test func onlyTheAppsOwnUserOrRootMayPauseItAndAMachineServiceOnlyRoot() throws {
        let scene = try Scene()
        let (bus, service, listener, link, server) = (scene.bus, scene.service, scene.listener, scene.link, scene.server)
        let person = try ThrowawayUser()
        let stranger = try ThrowawayUser()
        let app = try Download(server, link, app: "app-gnome-podcasts", user: try person.uid, seconds: 8, bus: bus)
        let machineService = try Download(server, link, app: "", user: 0, seconds: 8, bus: bus,
                                          cgroup: try ApplicationCgroup(unitName: "apt-daily.service"))
        let appActivity = try Self.awaitActivity(of: app.cgroup, listener)
        let serviceActivity = try Self.awaitActivity(of: machineService.cgroup, listener)

        // Another user: as if it did not exist; the app keeps moving.
        let refused = try Self.call("Pause", appActivity.id, as: stranger, bus)
        #expect(!refused.succeeded && refused.stderr.contains("no activity with id \(appActivity.id) is active"),
                "\(refused)")
        let size = app.size
        #expect(app.awaitGrowth(beyond: size, within: .seconds(3)) != nil, "the app stopped")
        // The machine's service: a user sees it, and may not pause it; root may.
        for user in [person, stranger] {
            let result = try Self.call("Pause", serviceActivity.id, as: user, bus)
            #expect(!result.succeeded && result.stderr.contains("no activity with id \(serviceActivity.id)"),
                    "\(result)")
        }
        let serviceSize = machineService.size
        #expect(machineService.awaitGrowth(beyond: serviceSize, within: .seconds(3)) != nil)
        let byRoot = try Self.call("Pause", serviceActivity.id, as: nil, bus)
        #expect(byRoot.succeeded, "\(byRoot)")
        #expect(try Self.awaitActivity(of: machineService.cgroup, listener) { $0.isPaused == true }.rate == 0)
        #expect(try Self.call("Resume", serviceActivity.id, as: nil, bus).succeeded)

        // What no kernel holds back: a caller's own activity.
        let client = try RawClient(bus)
        let own = try client.call(ServiceMembers.begin.serviceCall("backup"))
        let notPausable = try Self.call("Pause", own, as: nil, bus)
        #expect(!notPausable.succeeded && notPausable.stderr.contains("only that can be paused"), "\(notPausable)")
        _ = service
    }

    /// `netactivity pause APP` pauses by the app's name, `status --json` says so, and a `kill -9` of the service
    /// lifts the pause with the kernel's programs.
    @Test func aKilledServiceLiftsItsPauseAndTheTransferGoesOn() throws {
        let scene = try Scene()
        let (bus, service, listener, link, server) = (scene.bus, scene.service, scene.listener, scene.link, scene.server)
        // A name of this process's own: another copy of the suite's apps are measured by this service too.
        let name = "player\(getpid())"
        let app = try Download(server, link, app: "app-gnome-\(name)", user: 4242, seconds: 8, bus: bus)
        let shown = try Self.awaitActivity(of: app.cgroup, listener)
        let paused = try netactivity(bus, "pause", name)
        #expect(paused.succeeded, "\(paused)")
        _ = try Self.awaitActivity(of: app.cgroup, listener) { $0.isPaused == true }
        let status = try netactivity(bus, "status", "--json")
        let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        let row = (object?["activities"] as? [[String: Any]])?.first { ($0["id"] as? Int) == Int(shown.id) }
        #expect(row?["paused"] as? Bool == true && row?["rate"] as? Int == 0, "\(status)")
        let unknown = try netactivity(bus, "pause", "no-such-app-\(getpid())")
        #expect(unknown.status == 1 && unknown.stderr.contains("UnknownActivity"), "\(unknown)")
        Thread.sleep(until: Date.now.addingTimeInterval(1))
        let stopped = app.size
        Thread.sleep(until: Date.now.addingTimeInterval(2))
        #expect(app.size == stopped, "a paused app received \(app.size - stopped) bytes")

        service.send(SIGKILL)
        #expect(app.awaitGrowth(beyond: stopped, within: .seconds(8)) != nil,
                "the app stayed cut off after the service was killed")
        #expect(app.process.exitStatus(within: .seconds(60)) == 0 && app.size == app.wholeBody)
    }

    @Test func anAppThatExitsWhilePausedEndsPausedAndTheNextInItsCgroupMoves() throws {
        let scene = try Scene()
        let (bus, service, listener, link, server) = (scene.bus, scene.service, scene.listener, scene.link, scene.server)
        let first = try Download(server, link, app: "app-gnome-podcasts", user: 4242, seconds: 30, bus: bus)
        let shown = try Self.awaitActivity(of: first.cgroup, listener)
        #expect(try Self.call("Pause", shown.id, as: nil, bus).succeeded)
        _ = try Self.awaitActivity(of: first.cgroup, listener) { $0.isPaused == true }

        first.process.send(SIGKILL)
        #expect(first.process.exitStatus(within: .seconds(10)) != nil)
        _ = try TrafficTests.awaitEnd(of: shown.id, listener)
        let history = try RawClient(bus).call(ServiceMembers.getHistory.serviceCall(0))
        let entry = try #require(history.first { $0.id == shown.id }, "\(history)")
        #expect(entry.outcome == .paused, "\(entry)")

        // The same cgroup, a new process: nothing holds it back.
        let next = try Download(server, link, app: "", user: 4242, seconds: 2, bus: bus, cgroup: first.cgroup)
        #expect(next.process.exitStatus(within: .seconds(30)) == 0 && next.size == next.wholeBody,
                "\(service.log.suffix(2_000))")
    }

    /// A caller's activity in a paused app's cgroup (`netactivity run` in the same terminal, the shell hook) would
    /// take the app's rate in place of its row; a paused app keeps its row instead, in the system service and in
    /// the session, so that it is never cut off unseen, and the session's `Resume` lets it go on.
    @Test func aPausedAppJoinedByARunInItsCgroupStillShowsPausedAndResumesThroughTheSession() throws {
        let services = try SessionOverSystem(systemArguments: Self.counting)
        let (system, session) = (services.system, services.session)
        let systemListener = try SignalListener(system)
        try systemListener.readActivities()
        let sessionListener = try SignalListener(session)
        try sessionListener.readActivities()
        let link = try VethLink()
        let server = try PacedServer(address: VethLink.serverAddress, namespace: link.onServerSide)
        // The session's user is the test's, root: its apps are in user-0.slice.
        let app = try Download(server, link, app: "app-gnome-joined\(getpid())", user: 0, seconds: 12, bus: system)
        let shown = try Self.awaitActivity(of: app.cgroup, systemListener)
        let paused = try runTool("/usr/bin/busctl", ["--address=\(session.address)", "call", "org.example.NetworkActivity",
                                                     "/org/example/NetworkActivity/Pause", "org.example.NetworkActivity.Pause",
                                                     "Pause", "u", "\(shown.id)"], bus: session)
        #expect(paused.succeeded, "Pause through the session: \(paused)")
        _ = try Self.awaitActivity(of: app.cgroup, systemListener) { $0.isPaused == true }

        // A run of each service's, in the app's cgroup, as its user.
        var runs: [BackgroundProcess] = []
        for (flag, label) in [("--system", "joined-system"), ("", "joined-session")] {
            let command = #"echo $$ > "\#(app.cgroup.unit.path)/cgroup.procs" && exec \#(Paths.cli.path) run "#
                + #"\#(flag) --label \#(label) -- sleep 30"#
            runs.append(try BackgroundProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", command], bus: session,
                                              environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.address]))
        }
        _ = try Integration.ClientExampleTests.awaitRecord(systemListener) { $0.label == "joined-system" }
        _ = try Integration.ClientExampleTests.awaitRecord(sessionListener) { $0.label == "joined-session" }
        // Two more seconds of the app's reads: the row would have joined the runs by then.
        Thread.sleep(until: Date.now.addingTimeInterval(2))
        let systemRow = try RawClient(system).details().first { $0.id == shown.id }
        #expect(systemRow?.isPaused == true && systemRow?.rate == 0, "the system service's row: \(String(describing: systemRow))")
        let sessionRows = try RawClient(session).details()
        let sessionRow = sessionRows.first { $0.id == shown.id }
        #expect(sessionRow?.isPaused == true && sessionRow?.isSystem == true,
                "the session's row: \(String(describing: sessionRow)) of \(sessionRows)\n\(services.sessionService.log.suffix(3_000))")
        let stopped = app.size
        Thread.sleep(until: Date.now.addingTimeInterval(1))
        #expect(app.size == stopped, "a paused app received \(app.size - stopped) bytes")

        let resumed = try runTool("/usr/bin/busctl", ["--address=\(session.address)", "call", "org.example.NetworkActivity",
                                                      "/org/example/NetworkActivity/Pause", "org.example.NetworkActivity.Pause",
                                                      "Resume", "u", "\(shown.id)"], bus: session)
        #expect(resumed.succeeded, "Resume through the session: \(resumed)")
        #expect(app.awaitGrowth(beyond: stopped, within: .seconds(8)) != nil, "nothing arrived after Resume")
        #expect(app.process.exitStatus(within: .seconds(60)) == 0 && app.size == app.wholeBody)
        _ = (services, runs)
    }

    /// A user's own session (its service run as that user, on a bus of its own) passes the data usage's and
    /// pausing's calls on to the system service as that user, whole: it reads that user's rows, never another
    /// user's, and pauses that user's app; another user's id is unknown to it, and that app moves on.
    @Test func aUsersOwnSessionPassesTheirCallsOnAsThemAndNoOneElses() throws {
        let scene = try Scene()
        let (system, listener, link, server) = (scene.bus, scene.listener, scene.link, scene.server)
        let person = try ThrowawayUser()
        let stranger = try ThrowawayUser()
        let mine = try Download(server, link, app: "app-gnome-mine\(getpid())", user: try person.uid, seconds: 10,
                                bus: system)
        let theirs = try Download(server, link, app: "app-gnome-theirs\(getpid())", user: try stranger.uid,
                                  seconds: 10, bus: system)
        let mineShown = try Self.awaitActivity(of: mine.cgroup, listener)
        let theirsShown = try Self.awaitActivity(of: theirs.cgroup, listener)

        let session = try PrivateBus(policy: """
            <policy context="default">
              <allow user="*"/>
              <allow send_destination="*" eavesdrop="true"/>
              <allow eavesdrop="true"/>
              <allow own="*"/>
            </policy>
            """)
        let sessionService = try DaemonProcess(
            bus: session, arguments: DaemonProcess.noDelays + ["--traffic"], executable: ReachableCopies.of(Paths.daemon),
            wrapper: ["/usr/sbin/runuser", "-u", person.name, "--"],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.address])
        try sessionService.awaitLog("following the system service")
        func call(_ interface: InterfaceName, _ member: MemberName, _ arguments: String...) throws -> ToolResult {
            try runTool("/usr/bin/busctl", ["--address=\(session.address)", "call", ServiceNames.busName.rawValue,
                                            ServiceNames.objectPath(serving: interface).rawValue, interface.rawValue,
                                            member.rawValue] + arguments, bus: session)
        }

        let usage = try call(ServiceNames.usageInterface, UsageMembers.getUsage.name, "sb", "", "true")
        #expect(usage.succeeded && usage.stdout.contains("\"mine\(getpid())\"") && !usage.stdout.contains("theirs"),
                "the session's user's rows alone: \(usage)\n\(sessionService.log.suffix(2_000))")
        let refused = try call(ServiceNames.pauseInterface, PauseMembers.pause.name, "u", "\(theirsShown.id)")
        #expect(!refused.succeeded && refused.stderr.contains("no activity with id \(theirsShown.id)"), "\(refused)")
        let paused = try call(ServiceNames.pauseInterface, PauseMembers.pause.name, "u", "\(mineShown.id)")
        #expect(paused.succeeded, "\(paused)\n\(sessionService.log.suffix(2_000))")
        _ = try Self.awaitActivity(of: mine.cgroup, listener) { $0.isPaused == true }
        let size = theirs.size
        #expect(theirs.awaitGrowth(beyond: size, within: .seconds(3)) != nil, "the other user's app stopped")
        #expect(try call(ServiceNames.pauseInterface, PauseMembers.resume.name, "u", "\(mineShown.id)").succeeded)
        _ = try Self.awaitActivity(of: mine.cgroup, listener) { $0.isPaused == false }
        _ = (scene, sessionService)
    }

    /// Through the tray's dbusmenu, as a host draws it: a session service that shows the system service's
    /// measured apps, and the real tray on the session's bus. The session's user is the test's, root: its apps are
    /// in user-0.slice.
    @Test func theTrayMenusPauseRowPausesTheAppAndItsResumeRowLetsItGoOn() throws {
        typealias Menu = Integration.TrayMenuTests
        let services = try SessionOverSystem(systemArguments: Self.counting)
        let (system, session) = (services.system, services.session)
        let watcher = try TrayProcess.watcher(session)
        let host = try Menu.menuHost(session)
        let tray = try TrayProcess(session)
        let link = try VethLink()
        let server = try PacedServer(address: VethLink.serverAddress, namespace: link.onServerSide)
        let name = "pausing\(getpid())"
        let app = try Download(server, link, app: "app-gnome-\(name)", user: 0, seconds: 10, bus: system)
        // The item joins the tray once the indicator shows.
        try watcher.awaitCall("RegisterStatusNotifierItem", timeout: .seconds(20))

        let layout = try Menu.awaitLayout(session, tray, host, containing: "'Pause \(name)'")
        #expect(layout.contains("Pause \(name)’s network"), "the row's accessible-desc: \(layout)")
        let pause = try #require(Menu.rowID(labelled: "Pause \(name)", in: layout), "\(layout)")
        #expect(try Menu.menuCall(session, tray, "Event", [pause, "clicked", "<0>", "0"]).succeeded)
        let paused = try Menu.awaitLayout(session, tray, host, containing: "'Resume \(name)'")
        #expect(paused.range(of: "'\(name)[^']* — [^']*paused[^']*'", options: .regularExpression) != nil,
                "the row says paused: \(paused)")
        Thread.sleep(until: Date.now.addingTimeInterval(1))
        let stopped = app.size
        Thread.sleep(until: Date.now.addingTimeInterval(2))
        #expect(app.size == stopped, "a paused app received \(app.size - stopped) bytes")

        let resume = try #require(Menu.rowID(labelled: "Resume \(name)", in: paused), "\(paused)")
        #expect(try Menu.menuCall(session, tray, "Event", [resume, "clicked", "<0>", "0"]).succeeded)
        _ = try Menu.awaitLayout(session, tray, host, containing: "'Pause \(name)'")
        #expect(app.awaitGrowth(beyond: stopped, within: .seconds(8)) != nil, "nothing arrived after Resume")
        #expect(app.process.exitStatus(within: .seconds(60)) == 0 && app.size == app.wholeBody)
        _ = services
    }
}
