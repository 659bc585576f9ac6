import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness
import Testing

extension Integration {
    /// The tray item's menu and its way in and out of the tray, as hosts and real clients see them on a private bus
    /// with the real service and a watcher played by the test.
    @Suite("netactivity-tray: the menu, and joining and leaving the tray")
    struct TrayMenuTests {
        /// `gdbus call` on the tray's menu, in a UTF-8 locale so that it prints the rows' dashes.
        static func menuCall(_ scene: TrayScene, _ method: String, _ arguments: String...) throws -> ToolResult {
            try menuCall(scene.bus, scene.tray, method, arguments)
        }

        static func menuCall(_ bus: PrivateBus, _ tray: TrayProcess, _ method: String, _ arguments: [String]) throws
            -> ToolResult
        {
            try runTool("gdbus", ["call", "--session", "--dest", tray.itemName, "--object-path", "/MenuBar",
                                  "--method", "com.canonical.dbusmenu.\(method)"] + arguments, bus: bus,
                        environment: ["LC_ALL": "C.UTF-8"])
        }

        @Test func everyPropertyAHostNeedsIsThereFromTheFirstGetAllAndIsSaidAgainAfterTheRegistration() throws {
            let bus = try PrivateBus()
            let watcher = try TrayProcess.watcher(bus)
            let host = try FakePeer(bus, owning: "org.example.TestHost",
                                    signalsOf: [MatchRule(interface: "org.freedesktop.DBus.Properties",
                                                          member: StandardInterface.propertiesChanged.name)],
                                    answers: [:])
            let tray = try InProcessTray(bus)
            let item = try ItemProbe(bus, itemName: tray.itemName)
            try tray.show(InProcessTray.state([tray.activity(1, "mail")]))
            try watcher.awaitCall("RegisterStatusNotifierItem")
            let names = ["Id", "Title", "Category", "Status", "IconName", "IconPixmap", "ToolTip", "Menu", "ItemIsMenu"]
            let first = try item.properties()
            for name in names { #expect(first[name] != nil, "\(name) in the first GetAll") }
            #expect(try first["Menu"]?.decode(ObjectPath.self) == "/MenuBar")
            #expect(try first["ItemIsMenu"]?.decode(Bool.self) == false)

            // GNOME's AppIndicator extension reads Id and Menu again a second after the registration, and drops an
            // item that does not answer both; the item says them again at half a second, to fill its cache.
            try host.settle()
            let saidAtRegistration = host.signals.count
            try tray.advance(by: .milliseconds(499))
            try host.settle()
            #expect(host.signals.count == saidAtRegistration, "nothing said again before half a second")
            try tray.advance(by: .milliseconds(1))
            var changed = try host.awaitSignal(StandardInterface.propertiesChanged.name.rawValue).arguments()
            #expect(try changed.read(String.self) == "org.kde.StatusNotifierItem")
            let values = try changed.read([String: ReceivedVariant].self)
            #expect(try values["Id"]?.decode(String.self) == "netactivity")
            #expect(try values["Menu"]?.decode(ObjectPath.self) == "/MenuBar")
            try tray.advance(by: .milliseconds(600))
            #expect(try item.property("Id").decode(String.self) == "netactivity")
            #expect(try item.property("Menu").decode(ObjectPath.self) == "/MenuBar")
        }

        @Test func theMenuListsTheActivitiesWithTheirAgesAndItsActions() throws {
            let scene = try TrayScene()
            _ = try scene.client.begin("backup_nightly")
            _ = try scene.client.begin("")
            try scene.watcher.awaitCall("RegisterStatusNotifierItem")

            let layout = try Self.menuCall(scene, "GetLayout", "0", "int32 -1", "[]")
            #expect(layout.succeeded, "\(layout)")
            for row in ["'2 active'", "'Show details'", "'End all activities'", "'separator'",
                        "'children-display': <'submenu'>"] {
                #expect(layout.stdout.contains(row), "\(row) in \(layout.stdout)")
            }
            // Each activity with its age, which a busy machine may have taken past 0 s by the time it is read.
            #expect(layout.stdout.contains(/'backup__nightly — \d+ s'/), "\(layout.stdout)")
            #expect(layout.stdout.contains(/'\(no label\) — \d+ s'/), "\(layout.stdout)")
            #expect(layout.stdout.contains("'enabled': <false>"), "the header and activities are for reading only")

            let version = try runTool("gdbus", ["call", "--session", "--dest", scene.tray.itemName, "--object-path",
                                                "/MenuBar", "--method", "org.freedesktop.DBus.Properties.Get",
                                                "com.canonical.dbusmenu", "Version"], bus: scene.bus)
            #expect(version.stdout.contains("<uint32 3>"), "\(version)")
            let unknown = try Self.menuCall(scene, "Event", "999", "clicked", "<0>", "0")
            #expect(!unknown.succeeded && unknown.stderr.contains("InvalidArgs"), "\(unknown)")
            _ = scene
        }

        @Test func whileOpenTheMenuFollowsTheActivities() throws {
            let scene = try TrayScene()
            _ = try scene.client.begin("mail")
            try scene.watcher.awaitCall("RegisterStatusNotifierItem")
            let host = try Self.menuHost(scene.bus)
            let opened = try Self.menuCall(scene, "Event", "0", "opened", "<0>", "0")
            #expect(opened.succeeded, "\(opened)")
            let before = try Self.menuCall(scene, "GetLayout", "0", "int32 -1", "[]").stdout

            _ = try scene.client.begin("backup")
            var signal = try host.awaitSignal("LayoutUpdated").arguments()
            let revision = try signal.read(UInt32.self)
            #expect(try signal.read(Int32.self) == 0)
            let after = try Self.menuCall(scene, "GetLayout", "0", "int32 -1", "[]").stdout
            #expect(after.hasPrefix("(uint32 \(revision),"), "\(after)")
            #expect(!before.contains("backup") && after.contains("'backup — ") && after.contains("'2 active'"))
            _ = scene
        }

        /// A host that hears the menu's `LayoutUpdated`.
        static func menuHost(_ bus: PrivateBus) throws -> FakePeer {
            try FakePeer(bus, owning: "org.example.TestHost",
                         signalsOf: [MatchRule(interface: "com.canonical.dbusmenu", member: "LayoutUpdated")],
                         answers: [:])
        }

        /// Reads the menu until it holds `text`, awaiting a `LayoutUpdated` (which `host` listens for) after each
        /// read that does not; returns the layout.
        static func awaitLayout(_ scene: TrayScene, _ host: FakePeer, containing text: String) throws -> String {
            try awaitLayout(scene.bus, scene.tray, host, containing: text)
        }

        static func awaitLayout(_ bus: PrivateBus, _ tray: TrayProcess, _ host: FakePeer, containing text: String)
            throws -> String
        {
            try awaitLayout(bus, tray, host, "\(text) in the menu") { $0.contains(text) }
        }

        /// Reads the menu until `isAsWanted` accepts it, as `awaitLayout(_:_:containing:)` does.
        static func awaitLayout(_ bus: PrivateBus, _ tray: TrayProcess, _ host: FakePeer, _ wanted: String,
                                _ isAsWanted: (String) -> Bool) throws -> String
        {
            let deadline = ContinuousClock.now + .seconds(10)
            while true {
                let layout = try menuCall(bus, tray, "GetLayout", ["0", "int32 -1", "[]"]).stdout
                if isAsWanted(layout) { return layout }
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { throw TestFailure("not \(wanted): \(layout)") }
                try host.awaitSignal("LayoutUpdated", timeout: left)
            }
        }

        /// The id of the row labelled `label` in a `GetLayout` answer as gdbus prints it.
        static func rowID(labelled label: String, in layout: String) -> String? {
            guard let row = layout.range(of: #"\((\d+), \{[^}]*'\#(label)'"#, options: .regularExpression)
            else { return nil }
            return String(layout[row].dropFirst().prefix { $0.isNumber })
        }

        @Test func theMenuTellsHowFarAnActivityIsAndStopAsksItsOwner() throws {
            let scene = try TrayScene()
            let host = try Self.menuHost(scene.bus)
            // A real owner: `netactivity run` makes its activity cancellable, and stops its command when asked.
            let run = try BackgroundProcess(Paths.cli, ["run", "--label", "backup", "--", "sleep", "60"],
                                            bus: scene.bus)
            try scene.watcher.awaitCall("RegisterStatusNotifierItem")
            _ = try Self.awaitLayout(scene, host, containing: "'Stop backup'")
            // Progress may be told by any program of the owner's user.
            let id = try #require(try scene.client.list().first?.id)
            _ = try scene.client.call(ServiceMembers.setTransfer.name) {
                $0.append(id); $0.append(UInt64(450_000_000)); $0.append(UInt64(1_000_000_000))
            }
            let layout = try Self.awaitLayout(scene, host, containing: "'backup — 45 % — ")
            let stop = try #require(Self.rowID(labelled: "Stop backup", in: layout), "\(layout)")
            #expect(try scene.tray.property("ToolTip").decode(ReceivedToolTip.self).text == "backup — 45 %")

            let click = try Self.menuCall(scene, "Event", stop, "clicked", "<0>", "0")
            #expect(click.succeeded, "\(click)")
            #expect(run.exitStatus() == 143, "the command was stopped with SIGTERM: \(run.stderr)")
            _ = scene
        }

        @Test func recentListsWhatFinishedAndClearForgetsIt() throws {
            let scene = try TrayScene()
            let host = try Self.menuHost(scene.bus)
            _ = try scene.client.begin("mail")
            try scene.watcher.awaitCall("RegisterStatusNotifierItem")
            for label in (1...6).map({ "backup \($0)" }) {
                let id = try #require(replyNumber(try dbusSend(scene.bus, ServiceMembers.beginWithTimeout.name, "string:\(label)",
                                                               "uint32:60")))
                #expect(try dbusSend(scene.bus, ServiceMembers.end.name, "uint32:\(id)").succeeded)
            }
            let layout = try Self.awaitLayout(scene, host, containing: "'backup 6 — 0 s, finished ")
            #expect(layout.contains("'Recent'") && layout.contains("'Clear recent'"), "\(layout)")
            #expect(layout.contains("'backup 2 — ") && !layout.contains("'backup 1 — "), "the newest 5: \(layout)")
            let clear = try #require(Self.rowID(labelled: "Clear recent", in: layout), "\(layout)")

            #expect(try Self.menuCall(scene, "Event", clear, "clicked", "<0>", "0").succeeded)
            let cleared = try Self.awaitLayout(scene.bus, scene.tray, host, "the Recent rows gone") {
                !$0.contains("'Recent'") && !$0.contains("backup")
            }
            #expect(cleared.contains("'mail — "), "the live activity stays: \(cleared)")
            #expect(try scene.client.call(ServiceMembers.getHistory.serviceCall(0)).isEmpty)
            _ = scene
        }

        @Test func askedToStopTheRowReadsStopping() throws {
            let scene = try TrayScene()
            let host = try Self.menuHost(scene.bus)
            let owner = try RawClient(scene.bus)
            let id = try owner.begin("sync")
            _ = try owner.call(ServiceMembers.setCancellable.name) { $0.append(id); $0.append(true) }
            try scene.watcher.awaitCall("RegisterStatusNotifierItem")
            let layout = try Self.awaitLayout(scene, host, containing: "'Stop sync'")
            let stop = try #require(Self.rowID(labelled: "Stop sync", in: layout), "\(layout)")
            _ = try Self.menuCall(scene, "Event", stop, "clicked", "<0>", "0")
            let stopping = try Self.awaitLayout(scene, host, containing: "'Stopping sync…'")
            #expect(Self.rowID(labelled: "Stopping sync…", in: stopping) == stop, "the same row, now for reading")
            #expect(!stopping.contains("'Stop sync'"))
            _ = scene
        }

        /// Hosts draw the whole menu again at each `LayoutUpdated`: progress alone is shown at most every half second.
        @Test func progressAloneRedrawsAtMostTwiceASecond() throws {
            let bus = try PrivateBus()
            let watcher = try TrayProcess.watcher(bus)
            let host = try FakePeer(bus, owning: "org.example.TestHost",
                                    signalsOf: [MatchRule(interface: "com.canonical.dbusmenu", member: "LayoutUpdated"),
                                                MatchRule(interface: "org.kde.StatusNotifierItem",
                                                          member: "NewToolTip")],
                                    answers: [:])
            let tray = try InProcessTray(bus)
            try tray.show(InProcessTray.state([tray.activity(1, "backup", percent: 1)]))
            try watcher.awaitCall("RegisterStatusNotifierItem")
            try host.settle()
            let before = host.signals.count
            for percent in 2...20 {
                try tray.show(InProcessTray.state([tray.activity(1, "backup", percent: UInt32(percent))]))
            }
            try tray.advance(by: .milliseconds(499))
            try host.settle()
            #expect(host.signals.count == before, "nothing within half a second of the last redraw")
            try tray.advance(by: .milliseconds(1))
            try host.awaitSignal("LayoutUpdated")
            try host.settle()
            #expect(host.signals.count == before + 2, "one redraw, of the latest state: \(host.signals.map(\.member))")
            let item = try ItemProbe(bus, itemName: tray.itemName)
            #expect(try item.property("ToolTip").decode(ReceivedToolTip.self).text == "backup — 20 %")

            // More than progress is shown at once.
            try tray.show(InProcessTray.state([tray.activity(1, "backup", percent: 21), tray.activity(2, "mail")]))
            try host.awaitSignal("NewToolTip")
        }

        @Test func endAllFromTheMenuResetsTheService() throws {
            let scene = try TrayScene()
            _ = try scene.client.begin("mail")
            _ = try RawClient(scene.bus).begin("someone else's")
            try scene.watcher.awaitCall("RegisterStatusNotifierItem")
            let layout = try Self.menuCall(scene, "GetLayout", "0", "int32 -1", "[]").stdout
            let endAll = try #require(layout.range(of: #"\(4, \{[^}]*'End all activities'"#,
                                                   options: .regularExpression), "row 4 ends all: \(layout)")
            _ = endAll
            let click = try Self.menuCall(scene, "Event", "4", "clicked", "<0>", "0")
            #expect(click.succeeded, "\(click)")
            try scene.watcher.awaitRelease(of: scene.tray.itemName)
            #expect(try scene.client.list().isEmpty)
            _ = scene
        }

        @Test func leavingReleasesTheNameWithNoSignalOnTheWayOutAfterAtLeastASecond() throws {
            let scene = try TrayScene()
            let (watcher, tray, client) = (scene.watcher, scene.tray, scene.client)
            var signalsSoFar = 0
            for _ in 1...2 {
                let id = try client.begin("mail")
                let registration = try watcher.awaitCall("RegisterStatusNotifierItem")
                let joined = ContinuousClock.now
                let item = try #require(registration.sender)
                func itemSignals() -> Int { watcher.signals.count { $0.sender == item } }
                #expect(itemSignals() == signalsSoFar, "joining, the item changes first and announces nothing")

                // Ended at once: the item stays its second, with the idle look, and says so.
                try client.end(id)
                try watcher.awaitSignal("NewToolTip")
                #expect(try tray.property("IconName").decode(String.self) == "network-idle")
                let beforeLeaving = itemSignals()
                try watcher.awaitRelease(of: tray.itemName)
                #expect(ContinuousClock.now - joined >= .milliseconds(950), "it stayed at least a second")
                try watcher.settle()
                #expect(itemSignals() == beforeLeaving, "no New* signal on the way out")
                signalsSoFar = itemSignals()
            }
            _ = scene
        }

        /// gtk-sni-tray reads the icon on `NewIcon` in a thread of its own and drew it again after removing an item
        /// that left meanwhile. Ended 100 ms before the minimum stay is over, the item announces its idle look then;
        /// it must hold its name half a second after that, and leave then.
        @Test func itLeavesNoSoonerThanHalfASecondAfterItsLastChange() throws {
            let bus = try PrivateBus()
            let watcher = try TrayProcess.watcher(bus)
            let tray = try InProcessTray(bus)
            let item = try ItemProbe(bus, itemName: tray.itemName)
            try tray.show(InProcessTray.state([tray.activity(1, "mail")]))
            try watcher.awaitCall("RegisterStatusNotifierItem")
            try tray.advance(by: .milliseconds(900))
            try tray.show(InProcessTray.state([]))
            try watcher.awaitSignal("NewIcon")
            try tray.advance(by: .milliseconds(250))
            #expect(try item.isInTray, "it left the tray within 250 ms of announcing a change")
            try tray.advance(by: .milliseconds(249))
            #expect(try item.isInTray, "it left the tray within 499 ms of announcing a change")
            try tray.advance(by: .milliseconds(1))
            try watcher.awaitRelease(of: tray.itemName)
            #expect(try !item.isInTray)
        }

        @Test func withoutAWatcherItSaysOnceThatItWaitsAndOnceWhenOneComes() throws {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus)
            let tray = try TrayProcess(bus, arguments: ["--log-level", "info"])
            let client = try RawClient(bus)
            for _ in 1...4 {
                let id = try client.begin("mail")
                try client.end(id)
            }
            let id = try client.begin("mail")
            try tray.process.awaitStderr("waiting for a panel")
            let watcher = try TrayProcess.watcher(bus)
            try watcher.awaitCall("RegisterStatusNotifierItem")
            try tray.process.awaitStderr("came onto the bus")
            let log = tray.process.stderr
            #expect(log.components(separatedBy: "waiting for a panel").count == 2, "\(log)")
            #expect(log.components(separatedBy: "came onto the bus").count == 2, "\(log)")
            _ = (service, id)
        }
    }
}
