import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness
import Testing

/// The data each app used, kept by the real system service from the kernel's counts, on networks that the real
/// NetworkManager manages (`PrivateNetworkManager`): two veth pairs in namespaces of the test's own, one
/// connection metered ("Phone hotspot"), one not ("Office LAN"), paced servers on the far ends, so every byte
/// crosses an interface whose own counters the totals are checked against. The service runs in the machine's
/// network namespace, as on a desktop; apps run as a normal user in cgroups laid out as systemd lays a desktop's.
/// Not one of the serialized suites: everything it looks at is its own.
@Suite("Data usage per app and network",
       .enabled(if: ApplicationCgroup.canBeMade && PrivateNetworkManager.isInstalled,
                "needs root, a writable cgroup v2 tree and NetworkManager"))
struct DataUsageTests {
    static let hotspot = PrivateNetworkManager.Network(id: "Phone hotspot", interface: "hotspot0",
                                                       subnet: "10.213.0", metered: true)
    static let office = PrivateNetworkManager.Network(id: "Office LAN", interface: "office0", subnet: "10.214.0",
                                                      metered: false)
    static let person: UInt32 = 4242

    static func systemService(_ bus: PrivateBus, _ network: PrivateNetworkManager,
                              environment: [String: String] = [:]) throws -> DaemonProcess {
        try DaemonProcess(bus: bus, arguments: DaemonProcess.noDelays + ["--traffic", "--log-level", "debug"],
                          wrapper: network.inMachine([]), systemBus: true, environment: environment)
    }

    static func usage(_ bus: PrivateBus, since: String = "") throws -> [UsageRecord] {
        try RawClient(bus).call(UsageMembers.getUsage.serviceCall(since, true))
    }

    /// `busctl` as another Unix user, on the test's bus.
    static func busctl(as user: ThrowawayUser, _ bus: PrivateBus, _ arguments: [String]) throws -> ToolResult {
        try runTool("/usr/sbin/runuser", ["-u", user.name, "--", "/usr/bin/busctl", "--address=\(bus.address)"]
                    + arguments, bus: bus)
    }

    static func usageCall(_ member: String, _ arguments: String...) -> [String] {
        ["call", "org.example.NetworkActivity", "/org/example/NetworkActivity/Usage",
         "org.example.NetworkActivity.Usage", member] + arguments
    }

    @Test func eachAppsBytesAreCountedPerNetworkMeteredOrNotAndShownOnlyToItsUser() throws {
        let bus = try PrivateNetworkManager.systemBus()
        let network = try PrivateNetworkManager(bus: bus, networks: [Self.hotspot, Self.office])
        let service = try Self.systemService(bus, network)
        let hotspotServer = try PacedServer(address: Self.hotspot.serverAddress, namespace: network.inInternet)
        let officeServer = try PacedServer(address: Self.office.serverAddress, namespace: network.inInternet)
        let person = try ThrowawayUser()
        let stranger = try ThrowawayUser()
        let personID = try person.uid
        let browser = try ApplicationCgroup(desktopApp: "app-gnome-firefox\\x2desr", user: personID)
        let backup = try ApplicationCgroup(desktopApp: "app-gnome-backup\\x2dtool", user: personID)
        let before = try network.interfaceBytes(Self.hotspot.interface)

        // A fast download on the metered network, and a trickle below the traffic threshold on the other.
        let download = try hotspotServer.download(bytesPerSecond: 524_288, seconds: 2, in: browser, as: personID,
                                                  namespace: network.inMachine, bus: bus)
        let trickle = try officeServer.download(bytesPerSecond: 4_096, seconds: 2, in: backup, as: personID,
                                                namespace: network.inMachine, bus: bus)
        #expect(download.exitStatus(within: .seconds(30)) == 0 && trickle.exitStatus(within: .seconds(30)) == 0)
        let after = try network.interfaceBytes(Self.hotspot.interface)

        let rows = try Self.usage(bus)
        // Another copy of the suite, counted by this service too, has apps of the same names, of its own user.
        let browserRow = try #require(rows.first { $0.application == "firefox-esr" && $0.user == personID },
                                      "\(rows)\n\(service.log)")
        #expect(browserRow.network == "Phone hotspot" && browserRow.isMetered && browserRow.user == personID,
                "\(browserRow)")
        #expect(browserRow.received >= PacedServer.body(bytesPerSecond: 524_288, seconds: 2), "\(browserRow)")
        // Within 2 % of what crossed the interface, both ways (its counters count the link layer's headers too).
        let crossed = (after.received - before.received) + (after.sent - before.sent)
        let counted = rows.filter { $0.network == "Phone hotspot" }.reduce(UInt64(0)) { $0 + $1.total }
        #expect(Double(counted) >= 0.98 * Double(crossed) && Double(counted) <= 1.02 * Double(crossed),
                "counted \(counted) bytes, the interface \(crossed)")
        let backupRow = try #require(rows.first { $0.application == "backup-tool" && $0.user == personID }, "\(rows)")
        #expect(backupRow.network == "Office LAN" && !backupRow.isMetered, "\(backupRow)")
        #expect(backupRow.received >= PacedServer.body(bytesPerSecond: 4_096, seconds: 2), "\(backupRow)")
        #expect(!rows.contains { $0.network == "lo" }, "loopback is never counted: \(rows)")

        // Its user reads it, with a real client; another user reads none of it and clears none of it.
        let own = try Self.busctl(as: person, bus, Self.usageCall(UsageMembers.getUsage.name.rawValue, "sb", "", "true"))
        #expect(own.succeeded && own.stdout.contains("firefox-esr") && own.stdout.contains("Phone hotspot"), "\(own)")
        let other = try Self.busctl(as: stranger, bus, Self.usageCall(UsageMembers.getUsage.name.rawValue, "sb", "", "true"))
        #expect(other.succeeded && !other.stdout.contains("firefox-esr") && !other.stdout.contains("backup-tool"),
                "\(other)")
        let cleared = try Self.busctl(as: stranger, bus, Self.usageCall(UsageMembers.clearUsage.name.rawValue))
        #expect(cleared.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "u 0", "\(cleared)")
        #expect(try Self.usage(bus).contains { $0.application == "firefox-esr" })

        // The command, in the machine-readable form and for people.
        let json = try runTool(Paths.cli.path, ["usage", "--system", "--json", "--metered"], bus: bus)
        let records = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(records?.contains { $0["app"] as? String == "firefox-esr" && $0["network"] as? String == "Phone hotspot"
                                    && $0["metered"] as? Bool == true
                                    && ($0["private-to"] as? NSNumber)?.uint32Value == personID } == true, "\(json)")
        #expect(records?.contains { $0["app"] as? String == "backup-tool" } == false, "--metered: \(json)")
        let table = try runTool("/usr/sbin/runuser", ["-u", person.name, "--", ReachableCopies.of(Paths.cli).path,
                                                      "usage", "--system",
                                                      "--network", "Office LAN"], bus: bus)
        #expect(table.succeeded && table.stdout.contains("backup-tool") && !table.stdout.contains("firefox-esr")
                && table.stdout.contains("Office LAN"), "\(table)")
        _ = service
    }

    /// At most a minute lost to a crash: the minute's take writes the file, and only then says so with
    /// `UsageChanged`, so a `kill -9` after it loses nothing; a stop takes and writes what moved since. (A question
    /// takes the counts too, but leaves writing and telling to the next take: the answer waits for no file.) Other
    /// tests' services count beside this one: the test follows what it moved itself.
    @Test func theTotalsSurviveAKillAfterTheMinutesTakeAndAStopTakesTheLast() throws {
        let bus = try PrivateNetworkManager.systemBus()
        let network = try PrivateNetworkManager(bus: bus, networks: [Self.hotspot])
        let server = try PacedServer(address: Self.hotspot.serverAddress, namespace: network.inInternet)
        // Named for this test alone: another copy of the suite runs it as the same user, and the kernel counts both.
        let podcasts = "podcasts\(getpid())"
        let app = try ApplicationCgroup(desktopApp: "app-gnome-" + podcasts, user: Self.person)
        let body = PacedServer.body(bytesPerSecond: 262_144, seconds: 1)

        var service: DaemonProcess? = try Self.systemService(bus, network)
        let listener = try SignalListener(bus)
        try listener.readUsage()
        let first = try server.download(bytesPerSecond: 262_144, seconds: 1, in: app, as: Self.person,
                                        namespace: network.inMachine, bus: bus)
        #expect(first.exitStatus(within: .seconds(30)) == 0)
        // The app goes on trickling, so that every minute's take has something new; the first take told of after
        // the download ended holds all of it.
        let trickle = try server.download(bytesPerSecond: 2_048, seconds: 150, in: app, as: Self.person,
                                          namespace: network.inMachine, bus: bus)
        try listener.settle()
        let taken = try listener.next(timeout: .seconds(90)) { $0.member == UsageMembers.usageChanged.name.rawValue }
        #expect(taken != nil, "no take within a minute and a half: \(service?.log ?? "")")
        service?.send(SIGKILL)
        _ = service?.exitStatus(within: .seconds(10))
        service = try Self.systemService(bus, network)
        let afterKill = try #require(try Self.usage(bus).first { $0.application == podcasts })
        #expect(afterKill.received >= body, "\(afterKill)")

        // Moved and never written by a take: the stop takes and writes it.
        let second = try server.download(bytesPerSecond: 262_144, seconds: 1, in: app, as: Self.person,
                                         namespace: network.inMachine, bus: bus)
        #expect(second.exitStatus(within: .seconds(30)) == 0)
        service?.send(SIGTERM)
        #expect(service?.exitStatus(within: .seconds(10)) == 0)
        service = try Self.systemService(bus, network)
        let afterStop = try #require(try Self.usage(bus).first { $0.application == podcasts })
        #expect(afterStop.received >= afterKill.received + body, "\(afterKill) then \(afterStop)")
        trickle.process.terminate()
        _ = service
    }

    /// A time zone (POSIX `TZ`) whose local midnight comes `seconds` from now.
    static func zone(midnightIn seconds: Int) -> String {
        var now = timeval()
        gettimeofday(&now, nil)
        let secondsOfDay = Int(now.tv_sec % 86_400)
        var east = ((86_400 - seconds - secondsOfDay) % 86_400 + 86_400) % 86_400
        if east > 43_200 { east -= 86_400 }
        return String(format: "NAT%@%02d:%02d:%02d", east >= 0 ? "-" : "+", abs(east) / 3_600, abs(east) / 60 % 60,
                      abs(east) % 60)
    }

    @Test func eachLocalDayKeepsItsOwnBytes() throws {
        let bus = try PrivateNetworkManager.systemBus()
        let network = try PrivateNetworkManager(bus: bus, networks: [Self.hotspot])
        let server = try PacedServer(address: Self.hotspot.serverAddress, namespace: network.inInternet)
        let midnight = "midnight\(getpid())"
        let app = try ApplicationCgroup(desktopApp: "app-gnome-" + midnight, user: Self.person)
        // Midnight comes 20 s from now, while the download runs, whatever a busy machine (or a sanitizer) makes
        // the service's start take: the service takes the counts then.
        let zone = Self.zone(midnightIn: 20)
        let service = try Self.systemService(bus, network, environment: ["TZ": zone])
        try service.awaitLog("counting apps' traffic")

        let download = try server.download(bytesPerSecond: 65_536, seconds: 30, in: app, as: Self.person,
                                           namespace: network.inMachine, bus: bus)
        #expect(download.exitStatus(within: .seconds(60)) == 0)
        let rows = try Self.usage(bus).filter { $0.application == midnight }
        let days = Set(rows.map(\.day))
        #expect(days.count == 2, "the download crossed midnight in \(zone): \(rows)\n\(service.log)")
        #expect(rows.allSatisfy { $0.received > 30_000 }, "each day has its seconds' bytes: \(rows)")
        // --today, in the same time zone: the new day alone.
        let today = try runTool(Paths.cli.path, ["usage", "--system", "--today", "--json"], bus: bus,
                                environment: ["TZ": zone])
        let records = try JSONSerialization.jsonObject(with: Data(today.stdout.utf8)) as? [[String: Any]] ?? []
        let todays = records.filter { $0["app"] as? String == midnight }
        #expect(todays.count == 1 && todays.first?["day"] as? String == days.max(), "\(today)")
    }

    /// The tray's "Used today", read through dbusmenu as hosts read it, headed by the machine's data plan on the
    /// network, and its warning on a metered connection:
    /// one notification per app per day, past `--metered-warning`. The tray reads through the session service,
    /// which answers from the system service's totals and passes the system service's `UsageChanged` on.
    @Test func theTrayShowsTheDaysUsageAndWarnsOnceOfAnAppOnAMeteredNetwork() throws {
        let system = try PrivateNetworkManager.systemBus()
        let network = try PrivateNetworkManager(bus: system, networks: [Self.hotspot])
        let systemService = try Self.systemService(system, network)
        let scene = try SessionTray(following: system, trayArguments: ["--idle", "show", "--metered-warning", "1000000"])
        let (session, notifications, tray) = (scene.bus, scene.notifications, scene.tray)
        let server = try PacedServer(address: Self.hotspot.serverAddress, namespace: network.inInternet)
        // The tray's own user's app (root's, as the test runs).
        // Named for this test alone: another copy of the suite, counted by its own service, runs the same test as
        // the same user, and the kernel counts every copy's apps.
        let podcasts = "org.gnome.Podcasts\(getpid())"
        let app = try ApplicationCgroup(desktopApp: "app-gnome-" + podcasts, user: getuid())

        // The machine's plan on the hotspot, which heads the day's usage.
        let plan = try runTool(Paths.cli.path, ["plan", "Phone hotspot", "--cap", "100MB", "--period", "day", "--system"],
                               bus: system)
        #expect(plan.succeeded, "\(plan)")
        let download = try server.download(bytesPerSecond: 1_048_576, seconds: 2, in: app,
                                           namespace: network.inMachine, bus: system)
        #expect(download.exitStatus(within: .seconds(30)) == 0)
        // The minute's take writes the totals; UsageChanged reaches the tray through the session service.
        let warning = try Integration.NotificationTests.Notify(try notifications.awaitCall("Notify", timeout: .seconds(90)))
        #expect(warning.body.contains("\(podcasts) has used 2.") && warning.body.hasSuffix(" MB on Phone hotspot today"),
                "\(warning.body)")
        let layout = try runTool("gdbus", ["call", "--session", "--dest", tray.itemName, "--object-path", "/MenuBar",
                                           "--method", "com.canonical.dbusmenu.GetLayout", "0", "int32 -1", "[]"],
                                 bus: session, environment: ["LC_ALL": "C.UTF-8"])
        // The day's total counts the test's server too (in the root cgroup of another namespace): the metered part
        // is the app's.
        #expect(layout.stdout.contains("'Used today: ") && layout.stdout.contains(" (2.")
                && layout.stdout.contains(" MB metered)'") && layout.stdout.contains("'\(podcasts) — 2."),
                "\(layout)")
        let planLine = layout.stdout.range(of: #"'Phone hotspot: [0-9.]+ MB of 100.0 MB \([0-9]+ %\)'"#,
                                           options: .regularExpression)
        let headline = layout.stdout.range(of: "'Used today: ")
        #expect(planLine != nil && headline != nil && planLine!.lowerBound < headline!.lowerBound,
                "the plan's line heads the day's usage: \(layout)")

        // More on the same day: once the tray has read the day again (a host about to show its menu: the row
        // grew), no second warning.
        let more = try server.download(bytesPerSecond: 1_048_576, seconds: 1, in: app,
                                       namespace: network.inMachine, bus: system)
        #expect(more.exitStatus(within: .seconds(30)) == 0)
        let menu = ["call", "--session", "--dest", tray.itemName, "--object-path", "/MenuBar", "--method"]
        _ = try runTool("gdbus", menu + ["com.canonical.dbusmenu.AboutToShow", "0"], bus: session)
        let deadline = ContinuousClock.now + .seconds(20)
        var grown = ""
        while ContinuousClock.now < deadline {
            grown = try runTool("gdbus", menu + ["com.canonical.dbusmenu.GetLayout", "0", "int32 -1", "[]"],
                                bus: session, environment: ["LC_ALL": "C.UTF-8"]).stdout
            if grown.contains("'\(podcasts) — 3.") { break }
            usleep(100_000)
        }
        #expect(grown.contains("'\(podcasts) — 3."), "the tray read the day again: \(grown)")
        try notifications.settle()
        #expect(notifications.calls.filter { $0.member == "Notify" }.count == 1, "one warning per app and day")
        _ = (systemService, scene)
    }
}
