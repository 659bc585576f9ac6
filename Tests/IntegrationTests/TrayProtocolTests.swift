import DBusKit
import Foundation
import ServiceHarness
import Testing

extension Integration {
    /// `netactivity-tray` against a StatusNotifierWatcher that the test plays, on a private bus with the real
    /// service.
    @Suite("netactivity-tray: the StatusNotifierItem protocol")
    struct TrayProtocolTests {
        @Test func joinsTheTrayWhileVisibleAndLeavesWhenIdle() throws {
            let scene = try TrayScene()
            let (bus, watcher, tray, client) = (scene.bus, scene.watcher, scene.tray, scene.client)

            let mail = try client.begin("mail")
            let registration = try watcher.awaitCall("RegisterStatusNotifierItem")
            var registered = registration.arguments()
            #expect(try registered.read(String.self) == tray.itemName)
            #expect(try registration.sender == watcher.connection.nameOwner(of: BusName(tray.itemName)),
                    "the name registered is the registering connection's")

            // What a host reads: every property through GetAll, and each one alike through Get.
            let properties = try tray.properties()
            #expect(try properties["Category"]?.decode(String.self) == "SystemServices")
            #expect(try properties["Id"]?.decode(String.self) == "netactivity")
            #expect(try properties["Title"]?.decode(String.self) == "Network activity")
            #expect(try properties["Status"]?.decode(String.self) == "Active")
            #expect(try properties["IconName"]?.decode(String.self) == "network-transmit-receive")
            #expect(try properties["AttentionIconName"]?.decode(String.self) == "")
            #expect(try properties["ItemIsMenu"]?.decode(Bool.self) == false)
            #expect(try properties["WindowId"]?.decode(Int32.self) == 0)
            let pixmaps = try #require(try properties["IconPixmap"]?.decode([ReceivedPixmap].self))
            #expect(pixmaps.map(\.width) == [16, 22, 32])
            #expect(pixmaps.allSatisfy { $0.height == $0.width && $0.argb.count == Int($0.width * $0.height) * 4 })
            #expect(pixmaps.allSatisfy { $0.hasOpaquePixel(red: 0x1E, green: 0x88, blue: 0xE5) },
                    "the arrows are drawn in the active blue, alpha first")
            let toolTip = try #require(try properties["ToolTip"]?.decode(ReceivedToolTip.self))
            #expect(toolTip.title == "Network activity")
            #expect(toolTip.text == "mail")
            for name in ["Category", "Id", "Title", "Status", "IconName", "IconPixmap", "AttentionIconName",
                         "ToolTip", "ItemIsMenu", "WindowId"] {
                let single = try tray.property(name)
                #expect(single.signature == properties[name]?.signature, "\(name)")
            }
            #expect(try tray.property("ToolTip").decode(ReceivedToolTip.self).text == "mail")

            // A real client reads the same.
            let busctlToolTip = try busctl(bus, "--user", "get-property", tray.itemName, "/StatusNotifierItem",
                                           "org.kde.StatusNotifierItem", "ToolTip")
            #expect(busctlToolTip.stdout.contains(#""Network activity" "mail""#), "\(busctlToolTip)")

            // A second activity changes the tooltip, a line each, and says so; its label is escaped for hosts that read markup.
            let backup = try client.begin("backup <nightly>")
            try watcher.awaitSignal("NewToolTip")
            #expect(try tray.property("ToolTip").decode(ReceivedToolTip.self).text
                == "mail\nbackup &lt;nightly&gt;")

            // Idle: the item leaves by releasing its name.
            try client.end(mail)
            try client.end(backup)
            try watcher.awaitRelease(of: tray.itemName)
            #expect(try !tray.isInTray)

            // Visible again: it takes the name and registers again.
            _ = try client.begin("sync")
            let again = try watcher.awaitCall("RegisterStatusNotifierItem")
            var againArguments = again.arguments()
            #expect(try againArguments.read(String.self) == tray.itemName)
            #expect(try tray.property("ToolTip").decode(ReceivedToolTip.self).text == "sync")
            #expect(watcher.calls.filter { $0.member == "RegisterStatusNotifierItem" }.count == 2)
            #expect(tray.process.process.isRunning)
            _ = scene
        }

        /// The live item and its menu answer `Introspect` with their interface files, byte for byte.
        @Test func theItemAndItsMenuIntrospectAsTheirFiles() throws {
            let scene = try TrayScene()
            _ = try scene.client.begin("mail")
            try scene.watcher.awaitCall("RegisterStatusNotifierItem")
            for (path, file) in [("/StatusNotifierItem", "org.kde.StatusNotifierItem.xml"),
                                 ("/MenuBar", "com.canonical.dbusmenu.xml")] {
                let contract = try String(contentsOf: Paths.dbusFolder.appendingPathComponent(file), encoding: .utf8)
                #expect(try scene.tray.introspect(ObjectPath(path)) == contract, "\(path)")
            }
            _ = scene
        }

        @Test func registersAgainWhenTheWatcherRestartsAndWaitsQuietlyWithoutOne() throws {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus)
            let tray = try TrayProcess(bus)
            let client = try RawClient(bus)
            let names = try FakePeer(bus, owning: "org.example.TestNames",
                                     signalsOf: [MatchRule(sender: Connection.busDriverName,
                                                           member: "NameOwnerChanged",
                                                           arguments: [0: tray.itemName])],
                                     answers: [:])

            // No watcher yet: the item takes its name and waits.
            _ = try client.begin("mail")
            try names.awaitSignal("NameOwnerChanged")
            #expect(try tray.isInTray)

            // A panel starts: its watcher hears of the item.
            var watcher: FakePeer? = try TrayProcess.watcher(bus)
            var registration = try #require(watcher).awaitCall("RegisterStatusNotifierItem")
            var arguments = registration.arguments()
            #expect(try arguments.read(String.self) == tray.itemName)

            // The panel restarts, twice: each new watcher hears of the item.
            for _ in 1...2 {
                watcher = nil
                watcher = try TrayProcess.watcher(bus)
                registration = try #require(watcher).awaitCall("RegisterStatusNotifierItem")
                arguments = registration.arguments()
                #expect(try arguments.read(String.self) == tray.itemName)
            }

            // A watcher that takes its name before it serves refuses the first registration; the item registers
            // again when a host joins that watcher.
            watcher = nil
            let slowWatcher = try FakePeer(bus, owning: TrayProcess.watcherName, answers: [:])
            try slowWatcher.awaitCall("RegisterStatusNotifierItem")
            let signal = Message.signal(path: "/StatusNotifierWatcher", interface: "org.kde.StatusNotifierWatcher",
                                        member: "StatusNotifierHostRegistered")
            slowWatcher.connection.send(signal)
            try slowWatcher.awaitCall("RegisterStatusNotifierItem")

            #expect(tray.process.process.isRunning)
            #expect(!tray.process.stderr.contains("warning") && !tray.process.stderr.contains("error"),
                    "waiting for a watcher is not worth a warning: \(tray.process.stderr)")
            _ = service
        }

        /// GNOME's AppIndicator extension (46) sometimes drops an item at its registration, by a race of its own,
        /// and says so with `StatusNotifierItemUnregistered`.
        @Test func registersAgainWhenTheWatcherDropsItAFewTimesAtMost() throws {
            let scene = try TrayScene("--log-level", "info")
            let (watcher, tray, client) = (scene.watcher, scene.tray, scene.client)
            func registrations() -> Int { watcher.calls.filter { $0.member == "RegisterStatusNotifierItem" }.count }
            func drop(_ item: String? = nil) {
                let signal = Message.signal(path: "/StatusNotifierWatcher",
                                            interface: "org.kde.StatusNotifierWatcher",
                                            member: "StatusNotifierItemUnregistered")
                signal.append(item ?? tray.itemName)
                watcher.connection.send(signal)
            }

            let mail = try client.begin("mail")
            try watcher.awaitCall("RegisterStatusNotifierItem")
            // Another item's drop is not this item's.
            drop("org.kde.StatusNotifierItem-1-1")
            for _ in 1...5 {
                drop()
                let again = try watcher.awaitCall("RegisterStatusNotifierItem")
                var arguments = again.arguments()
                #expect(try arguments.read(String.self) == tray.itemName)
            }
            #expect(registrations() == 6)

            // A sixth drop is taken to mean it, and said once.
            drop()
            try tray.process.awaitStderr("keeps dropping")
            try watcher.settle()
            #expect(registrations() == 6)
            #expect(try tray.isInTray, "the item keeps its name for other hosts")

            // Joining the tray again starts the count afresh; a drop after the item left is not answered.
            try client.end(mail)
            try watcher.awaitRelease(of: tray.itemName)
            let sync = try client.begin("sync")
            try watcher.awaitCall("RegisterStatusNotifierItem")
            drop()
            try watcher.awaitCall("RegisterStatusNotifierItem")
            #expect(registrations() == 8)
            try client.end(sync)
            try watcher.awaitRelease(of: tray.itemName)
            drop()
            // The drop reaches the tray before the news of the next activity, which registers it once.
            try watcher.settle()
            _ = try client.begin("news")
            try watcher.awaitCall("RegisterStatusNotifierItem")
            try watcher.settle()
            #expect(registrations() == 9)
            #expect(tray.process.stderr.components(separatedBy: "; registering again").count - 1 == 6)
        }

        /// A watcher may announce that the item left (the release of its name) only as it answers the item's next
        /// registration, when the item came back at once (gtk-sni-tray's did, in a host test's churn). That drop is
        /// not the new registration's: answering it registered the item twice, and gtk-sni-tray went on drawing the
        /// icon after the item had left.
        @Test func aDropOfTheItemsEarlierStayIsNotAnswered() throws {
            let scene = try TrayScene("--log-level", "info")
            let (watcher, tray, client) = (scene.watcher, scene.tray, scene.client)
            func registrations() -> Int { watcher.calls.filter { $0.member == "RegisterStatusNotifierItem" }.count }
            func dropSignal() -> Message {
                let signal = Message.signal(path: "/StatusNotifierWatcher",
                                            interface: "org.kde.StatusNotifierWatcher",
                                            member: "StatusNotifierItemUnregistered")
                signal.append(tray.itemName)
                return signal
            }

            let mail = try client.begin("mail")
            try watcher.awaitCall("RegisterStatusNotifierItem")
            try client.end(mail)
            try watcher.awaitRelease(of: tray.itemName)
            watcher.beforeAnswering = { watcher, call in
                guard call.member == "RegisterStatusNotifierItem" else { return }
                watcher.beforeAnswering = { _, _ in }
                watcher.connection.send(dropSignal())
            }
            _ = try client.begin("sync")
            try watcher.awaitCall("RegisterStatusNotifierItem")
            try watcher.settle()
            // The item reads the drop and the answer before it answers this, and would register again before it.
            _ = try tray.properties()
            try watcher.settle()
            #expect(registrations() == 2)
            #expect(!tray.process.stderr.contains("registering again"))

            // A drop of this stay is still answered.
            watcher.connection.send(dropSignal())
            try watcher.awaitCall("RegisterStatusNotifierItem")
            #expect(registrations() == 3)
        }

        /// A panel that quits or restarts while the item's registration waits for its answer: the bus answers
        /// NoReply for it, which is no reason for a warning; the next watcher is told.
        @Test func aWatcherThatLeavesBeforeItAnswersIsNoWarning() throws {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus)
            var leaving: Connection? = try bus.connect()
            #expect(try leaving?.requestName(TrayProcess.watcherName, flags: .doNotQueue) == .primaryOwner)
            let tray = try TrayProcess(bus, arguments: ["--log-level", "info"])
            let client = try RawClient(bus)
            _ = try client.begin("mail")
            // The registration reaches the watcher, which leaves without answering it.
            let deadline = ContinuousClock.now + .seconds(10)
            while true {
                let message = try leaving?.nextMessage(timeout: ContinuousClock.now.duration(to: deadline))
                let received = try #require(message, "no registration reached the watcher")
                if received.member == "RegisterStatusNotifierItem" { break }
            }
            leaving = nil
            try tray.process.awaitStderr("left before it answered")
            let watcher = try TrayProcess.watcher(bus)
            try watcher.awaitCall("RegisterStatusNotifierItem")
            #expect(!tray.process.stderr.contains("warning"), "\(tray.process.stderr)")
            _ = service
        }

        /// GNOME's AppIndicator extension (46) may also forget `Id` and `Menu` just after a registration and keep
        /// the item unshown, or drop it; the item says them again three times after each registration, and not once
        /// it has left.
        @Test func saysItsIdAndMenuAgainAfterEachRegistration() throws {
            let scene = try TrayScene()
            let (watcher, tray, client) = (scene.watcher, scene.tray, scene.client)
            let host = try FakePeer(scene.bus, owning: "org.example.TestHost", signalsOf: [
                MatchRule(path: "/StatusNotifierItem", interface: "org.freedesktop.DBus.Properties",
                          member: StandardInterface.propertiesChanged.name),
            ], answers: [:])
            func awaitIdentity() throws {
                var arguments = try host.awaitSignal(StandardInterface.propertiesChanged.name.rawValue).arguments()
                #expect(try arguments.read(String.self) == "org.kde.StatusNotifierItem")
                let changed = try arguments.read([String: ReceivedVariant].self)
                #expect(try changed["Id"]?.decode(String.self) == "netactivity")
                #expect(try changed["Menu"]?.decode(ObjectPath.self) == "/MenuBar")
                #expect(changed.count == 2)
            }

            let mail = try client.begin("mail")
            try watcher.awaitCall("RegisterStatusNotifierItem")
            for _ in 1...3 { try awaitIdentity() }
            try client.end(mail)
            try watcher.awaitRelease(of: tray.itemName)

            // Joined again, the same; left (after its least second in the tray) before the second repeat, one.
            let sync = try client.begin("sync")
            try watcher.awaitCall("RegisterStatusNotifierItem")
            for _ in 1...3 { try awaitIdentity() }
            try client.end(sync)
            try watcher.awaitRelease(of: tray.itemName)
            let news = try client.begin("news")
            try watcher.awaitCall("RegisterStatusNotifierItem")
            try client.end(news)
            try awaitIdentity()
            try watcher.awaitRelease(of: tray.itemName)
            #expect(throws: (any Error).self, "no PropertiesChanged after the item left") {
                try host.awaitSignal(StandardInterface.propertiesChanged.name.rawValue, timeout: .seconds(5))
            }
        }

        @Test func recoversWhenTheServiceRestarts() throws {
            let bus = try PrivateBus()
            let watcher = try TrayProcess.watcher(bus)
            var service: DaemonProcess? = try DaemonProcess(bus: bus)
            let tray = try TrayProcess(bus)
            let client = try RawClient(bus)

            _ = try client.beginTimed("mail", seconds: 600)
            try watcher.awaitCall("RegisterStatusNotifierItem")

            // The service crashes: nothing is active any more, so the item leaves.
            try #require(service).send(SIGKILL)
            _ = service?.exitStatus()
            service = nil
            try watcher.awaitRelease(of: tray.itemName)

            // It comes back, and the next activity brings the item back too.
            service = try DaemonProcess(bus: bus)
            _ = try client.begin("backup")
            try watcher.awaitCall("RegisterStatusNotifierItem")
            #expect(try tray.property("ToolTip").decode(ReceivedToolTip.self).text == "backup")
        }

        @Test(arguments: [
            (["--idle", "never"], "netactivity-tray: --idle takes hide, passive or show, not 'never'"),
            (["--notify-after=-5"], "netactivity-tray: --notify-after takes a whole number of seconds, not '-5'"),
            (["--log-level"], "netactivity-tray: --log-level needs a value: --log-level LEVEL"),
            (["show"], "netactivity-tray: unknown option 'show'"),
        ])
        func aBadCommandLineExits64WithOneErrorAndTheUsageLine(arguments: [String], error: String) throws {
            let bus = try PrivateBus()
            let result = try runTool(Paths.tray.path, arguments, bus: bus)
            #expect(result.status == 64)
            #expect(result.stderr == error + "\nUsage: netactivity-tray [options]; see netactivity-tray --help\n")
            #expect(result.stdout.isEmpty)
        }

        @Test func optionsTakeTheirValueAfterASpaceOrAnEqualsSign() throws {
            let scene = try TrayScene("--idle=show", "--log-level", "info")
            try scene.watcher.awaitCall("RegisterStatusNotifierItem")
            try scene.tray.process.awaitStderr("registered")
        }

        @Test func exitsWithStatusOneWhenTheBusGoesAway() throws {
            let bus = try PrivateBus()
            let watcher = try TrayProcess.watcher(bus)
            let tray = try TrayProcess(bus, arguments: ["--idle", "show"])
            try watcher.awaitCall("RegisterStatusNotifierItem")
            bus.kill()
            #expect(tray.process.exitStatus() == 1)
            #expect(tray.process.stderr.contains("org.freedesktop.DBus.Error.Disconnected"), "\(tray.process.stderr)")
        }

        @Test func passiveStaysInTheTrayWithStatusPassive() throws {
            let scene = try TrayScene("--idle", "passive")
            let (watcher, tray, client) = (scene.watcher, scene.tray, scene.client)

            try watcher.awaitCall("RegisterStatusNotifierItem")
            #expect(try tray.property("Status").decode(String.self) == "Passive")
            #expect(try tray.property("IconName").decode(String.self) == "network-idle")
            #expect(try tray.property("ToolTip").decode(ReceivedToolTip.self).text == "No network activity")

            let id = try client.begin("mail")
            var status = try watcher.awaitSignal("NewStatus").arguments()
            #expect(try status.read(String.self) == "Active")
            #expect(try tray.property("Status").decode(String.self) == "Active")
            #expect(try tray.property("IconName").decode(String.self) == "network-transmit-receive")

            try client.end(id)
            status = try watcher.awaitSignal("NewStatus").arguments()
            #expect(try status.read(String.self) == "Passive")
            #expect(try tray.isInTray, "a passive item keeps its name")
            try watcher.settle()
            #expect(watcher.calls.filter { $0.member == "RegisterStatusNotifierItem" }.count == 1)
            _ = scene
        }

        @Test func showKeepsTheIdleLookInTheTray() throws {
            let scene = try TrayScene("--idle", "show")
            let (watcher, tray, client) = (scene.watcher, scene.tray, scene.client)

            try watcher.awaitCall("RegisterStatusNotifierItem")
            #expect(try tray.property("Status").decode(String.self) == "Active")
            #expect(try tray.property("IconName").decode(String.self) == "network-idle")
            let idlePixmaps = try tray.property("IconPixmap").decode([ReceivedPixmap].self)
            #expect(idlePixmaps.allSatisfy { $0.hasOpaquePixel(red: 0x9E, green: 0x9E, blue: 0x9E) })

            let id = try client.begin("mail")
            try watcher.awaitSignal("NewIcon")
            #expect(try tray.property("IconName").decode(String.self) == "network-transmit-receive")
            try client.end(id)
            try watcher.awaitSignal("NewIcon")
            #expect(try tray.property("IconName").decode(String.self) == "network-idle")
            #expect(try tray.property("Status").decode(String.self) == "Active")
            #expect(try tray.isInTray)
            try watcher.settle()
            #expect(!watcher.signals.contains { $0.member == "NewStatus" }, "the status never changes")
            _ = scene
        }

        @Test func aClickShowsTheActivitiesInANotification() throws {
            let scene = try TrayScene()
            let (bus, watcher, tray, client) = (scene.bus, scene.watcher, scene.tray, scene.client)
            _ = try client.begin("mail")
            _ = try client.begin("")
            try watcher.awaitCall("RegisterStatusNotifierItem")
            let activate = ["call", "--session", "--dest", tray.itemName, "--object-path", "/StatusNotifierItem",
                            "--method", "org.kde.StatusNotifierItem.Activate", "10", "20"]

            // No notification server: the click is answered, and nothing else happens.
            let unanswered = try runTool("gdbus", activate, bus: bus)
            #expect(unanswered.succeeded, "\(unanswered)")

            let server = try FakePeer(bus, owning: "org.freedesktop.Notifications", answers: [
                "Notify": { $0.makeReturn(with: UInt32(7)) },
            ])
            for replaces in [UInt32(0), 7] {
                let click = try runTool("gdbus", activate, bus: bus)
                #expect(click.succeeded, "\(click)")
                var notify = try server.awaitCall("Notify").arguments()
                #expect(try notify.read(String.self) == "netactivity")
                #expect(try notify.read(UInt32.self) == replaces, "a second click replaces the first notification")
                #expect(try notify.read(String.self) == "network-transmit-receive")
                #expect(try notify.read(String.self) == "2 active")
                #expect(try notify.read(String.self) == "mail\n(no label)")
            }
            #expect(tray.process.process.isRunning)
            _ = scene
        }

        @Test func badCallsGetNamedErrorsAndChangeNothing() throws {
            let scene = try TrayScene()
            let (bus, watcher, tray, client) = (scene.bus, scene.watcher, scene.tray, scene.client)
            _ = try client.begin("mail")
            try watcher.awaitCall("RegisterStatusNotifierItem")
            let before = try tray.properties().mapValues(\.signature)

            func send(_ member: String, _ arguments: String...) throws -> ToolResult {
                try runTool("dbus-send", ["--session", "--print-reply", "--dest=\(tray.itemName)",
                                          "/StatusNotifierItem", member] + arguments, bus: bus)
            }
            let cases: [(ToolResult, String)] = [
                (try send("org.freedesktop.DBus.Properties.Get", "string:org.kde.StatusNotifierItem",
                          "string:Nope"), "org.freedesktop.DBus.Error.UnknownProperty"),
                (try send("org.freedesktop.DBus.Properties.Set", "string:org.kde.StatusNotifierItem",
                          "string:Title", "variant:string:x"), "org.freedesktop.DBus.Error.PropertyReadOnly"),
                (try send("org.freedesktop.DBus.Properties.GetAll", "string:org.example.Other"),
                 "org.freedesktop.DBus.Error.UnknownInterface"),
                (try send("org.kde.StatusNotifierItem.Activate", "string:x"), "org.freedesktop.DBus.Error.InvalidArgs"),
                (try send("org.kde.StatusNotifierItem.Explode"), "org.freedesktop.DBus.Error.UnknownMethod"),
            ]
            for (result, error) in cases {
                #expect(!result.succeeded && result.stderr.contains(error), "\(result)")
            }
            // Its own interface, as a host introspects it.
            let introspection = try busctl(bus, "--user", "introspect", tray.itemName, "/StatusNotifierItem")
            #expect(introspection.stdout.contains(".NewToolTip") && introspection.stdout.contains("(sa(iiay)ss)"),
                    "\(introspection)")

            #expect(try tray.properties().mapValues(\.signature) == before)
            #expect(try tray.property("Title").decode(String.self) == "Network activity")
            #expect(tray.process.process.isRunning)
            _ = scene
        }
    }
}
