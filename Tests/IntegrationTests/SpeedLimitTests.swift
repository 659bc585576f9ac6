import Foundation
import NetworkActivityInterface
import ServiceHarness
import Testing

/// Speed limits, as people set them: `netactivity limit` as a throwaway user, and the real system service's
/// kernel programs holding that user's apps to the rule across a real interface (`VethLink`), apps in cgroups
/// laid out as systemd lays a desktop's. Transfers are TCP as fast as the kernel lets them (`BulkServer`), so
/// nothing but the limit holds them back.
/// Run in a process beside the pause tests' (`Tests/run-parts.sh`): its tests block their threads while
/// transfers run. Its own tests one at a time: each moves data as fast as two cores let it.
@Suite("Speed limits", .serialized,
       .enabled(if: ApplicationCgroup.canBeMade, "speed limits need root and a writable cgroup v2 tree"))
struct SpeedLimitTests {
    static let seconds = 12

    struct Scene {
        let bus: PrivateBus
        var service: DaemonProcess
        let link: VethLink
        let server: BulkServer
        /// Root, reading the records as the tray does.
        let listener: SignalListener

        init() throws {
            bus = try systemLikeBus(including: [systemPolicy])
            service = try PauseTests.systemService(bus)
            listener = try SignalListener(bus)
            try listener.readActivities()
            link = try VethLink()
            server = try BulkServer(address: VethLink.serverAddress, namespace: link.onServerSide)
        }

        /// A transfer of `user`'s desktop app `app`, in a cgroup of its own that lasts as long as it.
        func transfer(_ way: BulkServer.Way, seconds: Int = SpeedLimitTests.seconds, app: String,
                      of user: UInt32) throws -> (process: BackgroundProcess, cgroup: ApplicationCgroup) {
            let cgroup = try ApplicationCgroup(desktopApp: "app-gnome-\(app)", user: user)
            return (try server.transfer(way, seconds: seconds, in: cgroup, as: user, namespace: link.onAppSide, bus: bus),
                    cgroup)
        }
    }

    /// `netactivity --system ARGUMENTS` as `user` (nil: root).
    static func netactivity(as user: ThrowawayUser?, _ bus: PrivateBus, _ arguments: String...) throws -> ToolResult {
        try netactivity(as: user, bus, arguments)
    }

    static func netactivity(as user: ThrowawayUser?, _ bus: PrivateBus, _ arguments: [String]) throws -> ToolResult {
        guard let user else { return try runTool(Paths.cli.path, arguments + ["--system"], bus: bus) }
        let command = [try ReachableCopies.of(Paths.cli).path] + arguments + ["--system"]
        return try runTool("/usr/sbin/runuser", ["-u", user.name, "--"] + command, bus: bus)
    }

    /// The rules `limits --json` prints for `user`, by app id.
    static func limits(as user: ThrowawayUser?, _ bus: PrivateBus) throws -> [String: [String: UInt64]] {
        let listed = try netactivity(as: user, bus, "limits", "--json")
        #expect(listed.succeeded, "\(listed)")
        let rules = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: rules.map { rule in
            (rule["app"] as? String ?? "", rule.compactMapValues { ($0 as? NSNumber)?.uint64Value })
        })
    }

    static func ratio(_ bytes: UInt64, _ rate: UInt64, seconds: Int = SpeedLimitTests.seconds) -> Double {
        Double(bytes) / Double(rate) / Double(seconds)
    }

    /// A user's download and upload limits hold their apps to between 0.8× and 1.05× over 12 s, and their rows
    /// say so (`status --json`); the same user's app that another user limited under the same name moves several
    /// times as much, and neither user sees the other's rules.
    @Test func aUsersLimitsHoldTheirAppsAndAnotherUsersRuleOfTheSameNameTouchesNothingOfTheirs() throws {
        let scene = try Scene()
        let person = try ThrowawayUser(), stranger = try ThrowawayUser()
        let (downloader, uploader, free) = ("dl\(getpid())", "ul\(getpid())", "free\(getpid())")
        let down: UInt64 = 2_000_000, up: UInt64 = 1_000_000
        for (user, arguments) in [(person, ["limit", downloader, "--down", "2MB/s"]),
                                  (person, ["limit", uploader, "--up", "8Mbit/s"]),
                                  (stranger, ["limit", free, "--down", "100kB/s", "--up", "100kB/s"])] {
            let set = try Self.netactivity(as: user, scene.bus, arguments)
            #expect(set.succeeded, "\(arguments): \(set)")
        }
        #expect(try Self.limits(as: person, scene.bus) == [downloader: ["down": down], uploader: ["up": up]])
        #expect(try Self.limits(as: stranger, scene.bus) == [free: ["down": 100_000, "up": 100_000]])
        #expect(try Self.limits(as: nil, scene.bus) == [:], "root's rules are the machine's services'")

        let uid = try person.uid
        let transfers = [try scene.transfer(.down, app: downloader, of: uid), try scene.transfer(.up, app: uploader, of: uid),
                         try scene.transfer(.down, app: free, of: uid)]
        let limited = try PauseTests.awaitActivity(of: transfers[0].cgroup, scene.listener) { $0.limitDown != nil }
        #expect(limited.limitDown == down && limited.limitUp == nil, "\(limited)")
        let status = try Self.netactivity(as: person, scene.bus, "status", "--json")
        let rows = (try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])?["activities"]
        let row = (rows as? [[String: Any]])?.first { ($0["id"] as? Int) == Int(limited.id) }
        #expect(row?["limit-down"] as? Int == Int(down) && row?["limit-up"] == nil, "\(status)")
        let sending = try PauseTests.awaitActivity(of: transfers[1].cgroup, scene.listener) { $0.limitUp != nil }
        #expect(sending.limitUp == up && sending.limitDown == nil, "\(sending)")
        let unlimited = try PauseTests.awaitActivity(of: transfers[2].cgroup, scene.listener)
        #expect(unlimited.limitDown == nil && unlimited.limitUp == nil, "\(unlimited)")
        let moved = try transfers.map { try BulkServer.total(of: $0.process, within: .seconds(Self.seconds + 60)) }
        let (downRatio, upRatio) = (Self.ratio(moved[0], down), Self.ratio(moved[1], up))
        #expect(downRatio >= 0.8 && downRatio <= 1.05, "the download moved \(downRatio)× its limit")
        #expect(upRatio >= 0.8 && upRatio <= 1.05, "the upload moved \(upRatio)× its limit")
        #expect(Self.ratio(moved[2], down) > 5, "the app another user limited moved \(moved[2]) bytes")
        try scene.service.awaitLog("/user.slice/user-\(uid).slice/user@\(uid).service/app.slice/app-gnome-\(downloader)-")
    }

    /// Through the tray's dbusmenu, as a host draws it (`PauseTests`' Pause row, the same way): under a measured
    /// app, Limit opens the presets; 1 MB/s makes the rule, and the kernel holds the app to it, so its row says so
    /// and the preset is marked; "Pause on metered networks" adds that to the rule, and a second click takes it
    /// back; "No limit" lifts the speed. The menu's user is root, whose apps are in user-0.slice.
    @Test func theTrayMenusLimitPresetsMakeTheAppsRuleAndItsRowSaysSo() throws {
        typealias Menu = Integration.TrayMenuTests
        let services = try SessionOverSystem(systemArguments: PauseTests.counting)
        let (system, session) = (services.system, services.session)
        let watcher = try TrayProcess.watcher(session)
        let host = try Menu.menuHost(session)
        let tray = try TrayProcess(session)
        let link = try VethLink()
        let server = try BulkServer(address: VethLink.serverAddress, namespace: link.onServerSide)
        let name = "presets\(getpid())"
        let cgroup = try ApplicationCgroup(desktopApp: "app-gnome-\(name)", user: 0)
        let download = try server.transfer(.down, seconds: 30, in: cgroup, as: 0, namespace: link.onAppSide, bus: system)
        try watcher.awaitCall("RegisterStatusNotifierItem", timeout: .seconds(20))
        /// The Limit submenu of this test's app, as gdbus prints it: another test's apps, root's too, may be listed.
        func submenu(in layout: String) -> Substring {
            guard let start = layout.range(of: "'Limit \(name)'"),
                  let end = layout.range(of: "@av [])>]", range: start.upperBound..<layout.endIndex) else { return "" }
            return layout[start.lowerBound..<end.upperBound]
        }
        func click(_ label: String, in layout: String) throws {
            guard let id = Menu.rowID(labelled: label, in: String(submenu(in: layout))) else {
                throw TestFailure("no row \(label) under Limit \(name): \(layout)")
            }
            #expect(try Menu.menuCall(session, tray, "Event", [id, "clicked", "<0>", "0"]).succeeded)
        }
        /// The properties of the row labelled `label` in the submenu, as gdbus prints them.
        func row(_ label: String, in layout: String) -> String? {
            let rows = submenu(in: layout)
            return rows.range(of: #"\(\d+, \{[^}]*'\#(label)'[^}]*\}"#, options: .regularExpression).map { String(rows[$0]) }
        }
        func metered() throws -> String? {
            let listed = try Self.netactivity(as: nil, system, "limits", "--json")
            let rules = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]
            return rules?.first { $0["app"] as? String == name }?["metered"] as? String
        }

        let offered = try Menu.awaitLayout(session, tray, host, containing: "'Limit \(name)'")
        #expect(offered.contains("'Limit \(name)’s speed'"), "the submenu's accessible-desc: \(offered)")
        #expect(row("No limit", in: offered)?.contains("'toggle-state': <1>") == true, "\(offered)")
        #expect(row("1 MB/s", in: offered)?.contains("'toggle-state': <0>") == true, "\(offered)")
        try click("1 MB/s", in: offered)
        let limited = try Menu.awaitLayout(session, tray, host, containing: "limited to 1.0 MB/s")
        #expect(limited.range(of: "'\(name)[^']* — [^']*limited to 1.0 MB/s[^']*'", options: .regularExpression) != nil,
                "the app's row says so: \(limited)")
        #expect(try Self.limits(as: nil, system) == [name: ["down": 1_000_000, "up": 1_000_000]])
        let chosen = try Menu.awaitLayout(session, tray, host, "the preset marked") {
            row("1 MB/s", in: $0)?.contains("'toggle-state': <1>") == true
        }

        try click("Pause on metered networks", in: chosen)
        let pausing = try Menu.awaitLayout(session, tray, host, "Pause on metered networks marked") {
            row("Pause on metered networks", in: $0)?.contains("'toggle-state': <1>") == true
        }
        #expect(try metered() == "pause")
        try click("No limit", in: pausing)
        let lifted = try Menu.awaitLayout(session, tray, host, "the limit lifted") {
            $0.contains("'Limit \(name)'") && !$0.contains("limited to")
        }
        #expect(try Self.limits(as: nil, system) == [name: [:]], "the speed lifted")
        #expect(try metered() == "pause", "what it does on metered networks stays")
        try click("Pause on metered networks", in: lifted)
        _ = try Menu.awaitLayout(session, tray, host, "Pause on metered networks taken back") {
            row("Pause on metered networks", in: $0)?.contains("'toggle-state': <0>") == true
        }
        #expect(try metered() == nil)
        _ = (services, download)
    }

    /// Rules are kept across a restart and a `kill -9`, and hold an app that runs on through them; a damaged
    /// file is kept aside, and holds nothing.
    @Test func rulesAreKeptAcrossARestartAndAKillAndHoldAnAppRunningThroughThem() throws {
        var scene = try Scene()
        let person = try ThrowawayUser()
        let app = "kept\(getpid())"
        let rate: UInt64 = 1_000_000
        #expect(try Self.netactivity(as: person, scene.bus, "limit", app, "--down", "1MB/s").succeeded)
        let download = try scene.transfer(.down, seconds: 40, app: app, of: try person.uid)
        for signal in [SIGTERM, SIGKILL] {
            scene.service.send(signal)
            #expect(scene.service.exitStatus(within: .seconds(10)) != nil)
            scene.service = try PauseTests.systemService(scene.bus)
            #expect(try Self.limits(as: person, scene.bus) == [app: ["down": rate]], "after signal \(signal)")
            // Held again from its next entry: over the next four seconds, near the rate.
            _ = try BulkServer.soFar(of: download.process)
            let first = try BulkServer.soFar(of: download.process)
            var last = first
            for _ in 0..<4 { last = try BulkServer.soFar(of: download.process) }
            let held = Self.ratio(last - first, rate, seconds: 4)
            #expect(held >= 0.5 && held <= 1.3, "after signal \(signal), the app moved \(held)× its limit")
        }
        download.process.send(SIGKILL)

        let removed = try Self.netactivity(as: person, scene.bus, "limit", app, "--none")
        #expect(removed.succeeded, "\(removed)")
        #expect(try Self.limits(as: person, scene.bus).isEmpty)
        #expect(try Self.netactivity(as: person, scene.bus, "limit", app, "--up", "1MB/s").succeeded)
        scene.service.send(SIGKILL)
        #expect(scene.service.exitStatus(within: .seconds(10)) != nil)
        let file = scene.bus.stateDirectory.appendingPathComponent("limits")
        try Data("netactivity limits 1\n1000\tbroken\n".utf8).write(to: file)
        scene.service = try PauseTests.systemService(scene.bus)
        try scene.service.awaitLog("they are kept as \(file.path).damaged")
        #expect(try Self.limits(as: person, scene.bus).isEmpty)
        #expect(FileManager.default.fileExists(atPath: file.path + ".damaged"))
    }

    /// Bad input gets a named error and changes nothing; the command says what a rate is.
    @Test func badRulesAreRefusedByNameAndChangeNothing() throws {
        let scene = try Scene()
        let person = try ThrowawayUser()
        #expect(try Self.netactivity(as: person, scene.bus, "limit", "kept", "--down", "1MB/s").succeeded)
        // gdbus, which prints the error's name.
        let gdbus = ["/usr/bin/gdbus", "call", "--address", scene.bus.address, "--dest", "org.example.NetworkActivity",
                     "--object-path", "/org/example/NetworkActivity/Limits", "--method"]
        let setLimit = "org.example.NetworkActivity.Limits.SetLimit"
        for (arguments, words) in [([setLimit, "kept", "{'down': <uint64 10>}"], "a limit of 10 bytes a second is out of range"),
                                   ([setLimit, "kept", "{'sideways': <uint64 10000>}"], "not \"sideways\""),
                                   ([setLimit, "kept", "{'down': <uint32 10000>}"], "a u64 (t), not u"),
                                   ([setLimit, "kept", "{'over-plan': <'maybe'>}"], "allow or stop, not \"maybe\""),
                                   ([setLimit, "kept", "{'over-plan': <true>}"], "a string (s), not b"),
                                   ([setLimit, "kept", "{'metered': <'stop'>}"], "pause, allow, none or bytes a second, not \"stop\""),
                                   ([setLimit, "kept", "{'metered': <uint64 10>}"], "a limit of 10 bytes a second is out of range"),
                                   ([setLimit, "kept", "{'metered': <true>}"], "a word (s) or bytes a second (t), not b"),
                                   ([setLimit, "", "{'down': <uint64 10000>}"], "the app id is empty"),
                                   ([setLimit, "kept\u{1}", "{'down': <uint64 10000>}"], "control character"),
                                   (["org.example.NetworkActivity.Limits.RemoveLimit", ""], "the app id is empty")] {
            let result = try runTool("/usr/sbin/runuser", ["-u", person.name, "--"] + gdbus + arguments, bus: scene.bus)
            #expect(!result.succeeded && result.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs")
                    && result.stderr.contains(words), "\(arguments): \(result)")
        }
        let badRate = try Self.netactivity(as: person, scene.bus, "limit", "kept", "--down", "fast")
        #expect(badRate.status != 0 && badRate.stderr.contains("500kB/s"), "\(badRate)")
        let neither = try Self.netactivity(as: person, scene.bus, "limit", "kept")
        #expect(neither.status != 0 && neither.stderr.contains("--none"), "\(neither)")
        let badWord = try Self.netactivity(as: person, scene.bus, "limit", "kept", "--over-plan", "yes")
        #expect(badWord.status != 0 && badWord.stderr.contains("allow or stop"), "\(badWord)")
        let badMetered = try Self.netactivity(as: person, scene.bus, "limit", "kept", "--metered", "stop")
        #expect(badMetered.status != 0 && badMetered.stderr.contains("pause, allow, none"), "\(badMetered)")
        let wrongType = try runTool("/usr/sbin/runuser", ["-u", person.name, "--", "/usr/bin/dbus-send",
                                                          "--bus=\(scene.bus.address)", "--print-reply",
                                                          "--dest=org.example.NetworkActivity",
                                                          "/org/example/NetworkActivity/Limits",
                                                          "org.example.NetworkActivity.Limits.SetSaver", "string:on"],
                                    bus: scene.bus)
        #expect(!wrongType.succeeded && wrongType.stderr.contains("InvalidArgs"), "\(wrongType)")
        let badSaver = try Self.netactivity(as: person, scene.bus, "saver", "maybe")
        #expect(badSaver.status != 0, "\(badSaver)")
        #expect(try Self.netactivity(as: person, scene.bus, "saver").stdout == "off\n", "a refused call changes nothing")
        #expect(try Self.limits(as: person, scene.bus) == ["kept": ["down": 1_000_000]])
    }
}
