import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness
import Testing

/// Data plans, kept by the real system service's kernel programs on a network that the real NetworkManager
/// manages (`PrivateNetworkManager`), in a network namespace of the test's own, where the service runs as on a
/// desktop: a download at 10 MB/s stops within a megabyte past the cap, and stays stopped, while an app the person
/// exempted goes on.
@Suite("Data plans", .serialized,
       .enabled(if: ApplicationCgroup.canBeMade && PrivateNetworkManager.isInstalled,
                "needs root, a writable cgroup v2 tree and NetworkManager"))
struct DataPlanTests {
    static let rate = 10_000_000
    /// The tray's key of a used-up plan's "Resume".
    static let resumeAction = "resume"
    static let cap: UInt64 = 20_000_000

    @Test func aDownloadAtTenMegabytesASecondStopsWithinAMegabytePastTheCapAndStaysStopped() throws {
        let bus = try PrivateNetworkManager.systemBus()
        let network = try PrivateNetworkManager(bus: bus, networks: [DataUsageTests.hotspot])
        let service = try DataUsageTests.systemService(bus, network)
        let server = try PacedServer(address: DataUsageTests.hotspot.serverAddress, namespace: network.inInternet)
        let set = try runTool(Paths.cli.path, ["plan", "--system", "Phone hotspot", "--cap", "20MB",
                                               "--period", "month", "--starts", "5"], bus: bus)
        #expect(set.succeeded, "\(set)\n\(service.log.suffix(2_000))")
        let before = try network.interfaceBytes(DataUsageTests.hotspot.interface)

        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("netactivity-plan-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("body")
        let person = try ThrowawayUser()
        chmod(folder.path, 0o777)
        let browser = try ApplicationCgroup(desktopApp: "app-gnome-firefox\\x2desr", user: try person.uid)
        let download = try server.download(bytesPerSecond: Self.rate, seconds: 6, in: browser, as: try person.uid,
                                           namespace: network.inMachine, output: file.path, bus: bus)
        func size() -> UInt64 { Self.size(of: file.path) }
        let last = Self.awaitStill(file.path)
        let after = try network.interfaceBytes(DataUsageTests.hotspot.interface)
        let crossed = (after.received - before.received) + (after.sent - before.sent)
        #expect(last < PacedServer.body(bytesPerSecond: Self.rate, seconds: 6), "the download was not stopped")
        #expect(crossed <= Self.cap + 1_000_000, "\(crossed) bytes crossed for a cap of \(Self.cap)")
        #expect(crossed >= Self.cap * 9 / 10, "only \(crossed) bytes crossed for a cap of \(Self.cap)")
        usleep(2_000_000)
        #expect(size() == last, "the download went on past the cap")

        let json = try runTool(Paths.cli.path, ["plans", "--system", "--json"], bus: bus)
        let records = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        let plan = try #require(records?.first { $0["network"] as? String == "Phone hotspot" }, "\(json)")
        // What is left lets no packet through: less than one of 64 KiB.
        #expect(((plan["left"] as? NSNumber)?.uint64Value ?? .max) < 65_536 && (plan["cap"] as? NSNumber)?.uint64Value == Self.cap
                && plan["period"] as? String == "month" && (plan["starts"] as? NSNumber)?.intValue == 5, "\(plan)")
        #expect(service.log.contains("the data plan of Phone hotspot is used up"), "\(service.log.suffix(2_000))")

        // An app the person exempted goes on past the used-up plan, which stops it again once the rule is taken
        // back; the browser stays stopped all along.
        let maps = "maps\(getpid())"
        let exempt = try SpeedLimitTests.netactivity(as: person, bus, "limit", maps, "--over-plan", "allow")
        #expect(exempt.succeeded, "\(exempt)")
        let rules = try SpeedLimitTests.netactivity(as: person, bus, "limits", "--json")
        #expect(rules.stdout.contains(#""over-plan":"allow""#) || rules.stdout.contains(#""over-plan" : "allow""#),
                "\(rules)")
        let mapsFile = folder.appendingPathComponent("maps")
        let mapsCgroup = try ApplicationCgroup(desktopApp: "app-gnome-\(maps)", user: try person.uid)
        let exempted = try server.download(bytesPerSecond: 1_000_000, seconds: 60, in: mapsCgroup,
                                           as: try person.uid, namespace: network.inMachine, output: mapsFile.path,
                                           bus: bus)
        let going = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < going, Self.size(of: mapsFile.path) < 2_000_000 { usleep(50_000) }
        #expect(Self.size(of: mapsFile.path) >= 2_000_000, "the exempted app did not go on: \(exempted.stderr) \(service.log.suffix(2_000))")
        #expect(size() == last, "the browser went on past the cap beside the exempted app")
        let taken = try SpeedLimitTests.netactivity(as: person, bus, "limit", maps, "--over-plan", "stop")
        #expect(taken.succeeded, "\(taken)")
        let stopped = Self.awaitStill(mapsFile.path)
        #expect(stopped < 50_000_000, "the app no longer exempted went on")
        exempted.send(SIGTERM)
        _ = mapsCgroup

        // Resumed, every app goes on until the period ends: a new download in the browser's cgroup crosses.
        let resumed = try runTool(Paths.cli.path, ["plan", "--system", "Phone hotspot", "--resume"], bus: bus)
        #expect(resumed.succeeded, "\(resumed)")
        let again = folder.appendingPathComponent("again")
        let more = try server.download(bytesPerSecond: 2_000_000, seconds: 1, in: browser, as: try person.uid,
                                       namespace: network.inMachine, output: again.path, bus: bus)
        #expect(more.exitStatus(within: .seconds(30)) == 0, "the download after the resume: \(more.stderr)")
        #expect(Self.size(of: again.path) == PacedServer.body(bytesPerSecond: 2_000_000, seconds: 1),
                "the resumed plan held the download back")
        let resumedPlans = try runTool(Paths.cli.path, ["plans", "--system", "--json"], bus: bus)
        #expect(resumedPlans.stdout.contains(#""resumed":true"#) || resumedPlans.stdout.contains(#""resumed" : true"#),
                "\(resumedPlans)")

        // A user may read the plans, not change them.
        let refused = try runTool("/usr/sbin/runuser", ["-u", person.name, "--", ReachableCopies.of(Paths.cli).path,
                                                        "plan", "--system", "Phone hotspot", "--none"], bus: bus)
        #expect(!refused.succeeded && refused.stderr.contains("AccessDenied"), "\(refused)")
        download.send(SIGTERM)
    }

    /// The warning at its level, at once: the packet that takes the plan past it wakes the service, which says
    /// `PlansChanged`; the tray, through the session service, tells of it once, and once more of the plan used up,
    /// naming the network, what was used of the cap and the day it resets.
    @Test func theTrayTellsOnceOfThePlanAtItsWarningAndOnceUsedUp() throws {
        let system = try PrivateNetworkManager.systemBus()
        let network = try PrivateNetworkManager(bus: system, networks: [DataUsageTests.hotspot])
        let service = try DataUsageTests.systemService(system, network)
        let session = try SessionTray(following: system, trayArguments: ["--idle", "show"],
                                      environment: ["LC_ALL": "C.UTF-8"])
        let notifications = session.notifications
        let listener = try SignalListener(system)
        let set = try runTool(Paths.cli.path, ["plan", "--system", "Phone hotspot", "--cap", "20MB", "--period", "day",
                                               "--warn", "50"], bus: system)
        #expect(set.succeeded, "\(set)")
        #expect(try listener.next { $0.member == PlansMembers.plansChanged.name.rawValue } != nil, "no PlansChanged")
        let listed = try runTool(Paths.cli.path, ["plans", "--system", "--json"], bus: system)
        let resets = try #require((try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])?
            .first?["resets"] as? String, "\(listed)")
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                      "October", "November", "December"]
        let parts = resets.split(separator: "-").compactMap { Int($0) }
        let day = "\(parts[2]) \(months[parts[1] - 1])"

        let server = try PacedServer(address: DataUsageTests.hotspot.serverAddress, namespace: network.inInternet)
        let download = try server.download(bytesPerSecond: Self.rate, seconds: 6, in: nil,
                                           namespace: network.inMachine, bus: system)
        let warning = try Integration.NotificationTests.Notify(try notifications.awaitCall("Notify", timeout: .seconds(30)))
        #expect(warning.summary == "Data plan" && warning.body.hasPrefix("Phone hotspot: ")
                && warning.body.hasSuffix(" of 20.0 MB used, resets on \(day)"), "\(warning.body)")
        let used = Double(warning.body.dropFirst("Phone hotspot: ".count).prefix { $0 != " " }) ?? 0
        #expect(used >= 10, "told of the warning at \(used) MB of 20 MB, below its 50 %")
        try service.awaitLog("the data plan of Phone hotspot is 50 % used")
        let usedUp = try Integration.NotificationTests.Notify(try notifications.awaitCall("Notify", timeout: .seconds(30)))
        #expect(usedUp.summary == "Data plan used up"
                && usedUp.body.hasSuffix(" of 20.0 MB used; its apps are stopped until it resets on \(day)"),
                "\(usedUp.body)")
        // Its Resume, clicked: the tray asks the service (through the session's), which resumes the plan.
        let action = Message.signal(path: "/org/freedesktop/Notifications",
                                    interface: "org.freedesktop.Notifications", member: "ActionInvoked")
        action.appendArguments { $0.append(UInt32(7)); $0.append(DataPlanTests.resumeAction) }
        notifications.connection.send(action)
        notifications.connection.flush()
        try service.awaitLog("the data plan of Phone hotspot is resumed until it resets")
        download.send(SIGTERM)
        try notifications.settle()
        #expect(notifications.calls.filter { $0.member == "Notify" }.count == 2, "one notification a level")
        _ = session
    }

    /// A user whom polkit authorizes for the project's action (the real polkit daemon, the action as installed, a
    /// rule naming the user) sets and removes a plan; another user, whom no rule names and no agent asks, is
    /// refused with `AccessDenied`, and nothing changes.
    @Test(.enabled(if: PrivatePolkit.isInstalled, "needs root and polkitd"))
    func aUserPolkitAuthorizesSetsAPlanAndAnotherIsRefused() throws {
        let bus = try systemLikeBus(including: [systemPolicy, PrivatePolkit.busPolicy])
        let person = try ThrowawayUser(), stranger = try ThrowawayUser()
        let polkit = try PrivatePolkit(bus: bus, authorizing: [person.name],
                                       action: PolkitInterface.managePlans)
        let service = try PauseTests.systemService(bus)
        let set = try SpeedLimitTests.netactivity(as: person, bus, "plan", "Office", "--cap", "5GB", "--period", "week",
                                                  "--starts", "monday")
        #expect(set.succeeded, "\(set)\n\(service.log.suffix(2_000))")
        let refused = try SpeedLimitTests.netactivity(as: stranger, bus, "plan", "Office", "--none")
        #expect(!refused.succeeded && refused.stderr.contains("org.freedesktop.DBus.Error.AccessDenied")
                && refused.stderr.contains("polkit did not authorize \(PolkitInterface.managePlans)"), "\(refused)")
        let listed = try SpeedLimitTests.netactivity(as: stranger, bus, "plans", "--json")
        #expect(listed.stdout.contains(#""network":"Office""#) || listed.stdout.contains(#""network" : "Office""#),
                "the refused removal changed nothing: \(listed)")
        let removed = try SpeedLimitTests.netactivity(as: person, bus, "plan", "Office", "--none")
        #expect(removed.succeeded, "\(removed)")
        let after = try SpeedLimitTests.netactivity(as: stranger, bus, "plans", "--json")
        #expect(!after.stdout.contains("Office"), "\(after)")
        _ = polkit
    }

    static func size(of path: String) -> UInt64 {
        var status = stat()
        return stat(path, &status) == 0 ? UInt64(status.st_size) : 0
    }

    /// The file's size once it grew no more for two seconds (looked at often, as a file's growth sends no
    /// signal), within 30 s.
    static func awaitStill(_ path: String) -> UInt64 {
        let deadline = ContinuousClock.now + .seconds(30)
        var last = size(of: path)
        var still = ContinuousClock.now
        while ContinuousClock.now < deadline, ContinuousClock.now - still < .seconds(2) {
            usleep(50_000)
            if size(of: path) != last {
                last = size(of: path)
                still = .now
            }
        }
        #expect(ContinuousClock.now - still >= .seconds(2), "\(path) went on growing for 30 s")
        return last
    }
}
