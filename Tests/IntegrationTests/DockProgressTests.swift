import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness
import Testing

extension Integration {
    /// Each app's progress on its dock icon: the tray's `com.canonical.Unity.LauncherEntry.Update` signals, heard
    /// by a dock played by the test, for a `netactivity run` that a desktop file in the tray's `XDG_DATA_HOME`
    /// names (its command, netactivity, is the app the service finds).
    @Suite("Progress on docks' icons") struct DockProgressTests {
        let bus: PrivateBus
        let dataHome: URL
        let runtime: URL

        init() throws {
            bus = try PrivateBus()
            dataHome = bus.directory.appendingPathComponent("data")
            runtime = bus.directory.appendingPathComponent("runtime")
            let applications = dataHome.appendingPathComponent("applications")
            try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
            try "[Desktop Entry]\nType=Application\nName=Backup Tool\nExec=true\n"
                .write(to: applications.appendingPathComponent("netactivity.desktop"), atomically: true, encoding: .utf8)
        }

        func tray(_ arguments: [String] = []) throws -> TrayProcess {
            try TrayProcess(bus, arguments: ["--log-level", "debug"] + arguments,
                            environment: ["XDG_DATA_HOME": dataHome.path, "XDG_RUNTIME_DIR": runtime.path])
        }

        /// A dock: it hears every `Update`.
        func dock() throws -> FakePeer {
            try FakePeer(bus, owning: "org.example.TestDock",
                         signalsOf: [MatchRule(interface: "com.canonical.Unity.LauncherEntry", member: "Update"),
                                     MatchRule(sender: Connection.busDriverName, member: "NameOwnerChanged")],
                         answers: [:])
        }

        /// An `Update`'s app id, progress and visibility.
        struct Heard: Equatable {
            let application: String
            let progress: Double?
            let isVisible: Bool?

            init?(_ message: Message) {
                guard message.member == "Update", message.hasSignature("sa{sv}") else { return nil }
                var arguments = message.arguments()
                guard let uri = try? arguments.read(String.self),
                      let properties = try? arguments.read([String: ReceivedVariant].self) else { return nil }
                application = uri
                progress = try? properties["progress"]?.decode(Double.self)
                isVisible = try? properties["progress-visible"]?.decode(Bool.self)
            }
        }

        func awaitUpdate(_ dock: FakePeer, _ what: String, _ matches: (Heard) -> Bool) throws -> Heard {
            let message = try dock.awaitMessage(what) { message in Heard(message).map(matches) ?? false }
            return try #require(Heard(message))
        }

        @Test func aRunsProgressShowsOnItsAppsIconAndIsHiddenAtItsEnd() throws {
            let service = try DaemonProcess(bus: bus)
            let dock = try dock()
            let tray = try tray()
            let run = try BackgroundProcess(Paths.cli, ["run", "--label", "backup", "--", "sleep", "60"], bus: bus)
            let client = try RawClient(bus)
            let id = try #require(try awaitID(client))
            _ = try client.call(ServiceMembers.setProgress.name) { $0.append(id); $0.append(UInt32(45)) }
            let shown = try awaitUpdate(dock, "progress shown") { $0.isVisible == true }
            #expect(shown.application == "application://netactivity.desktop" && shown.progress == 0.45, "\(shown)")
            run.process.terminate()
            _ = try awaitUpdate(dock, "progress hidden") {
                $0.application == "application://netactivity.desktop" && $0.isVisible == false
            }
            _ = (service, tray)
        }

        @Test func aThousandReportsInASecondGiveAtMostTwoUpdatesASecond() throws {
            let service = try DaemonProcess(bus: bus)
            let dock = try dock()
            let tray = try tray()
            let run = try BackgroundProcess(Paths.cli, ["run", "--label", "backup", "--", "sleep", "60"], bus: bus)
            let client = try RawClient(bus)
            let id = try #require(try awaitID(client))
            _ = try client.call(ServiceMembers.setProgress.name) { $0.append(id); $0.append(UInt32(0)) }
            _ = try awaitUpdate(dock, "progress shown") { $0.isVisible == true }
            let started = ContinuousClock.now
            for report in 0..<1000 {
                _ = try client.call(ServiceMembers.setProgress.name) { $0.append(id); $0.append(UInt32(report / 10)) }
            }
            // The last report, 99 %, reaches the dock, after at most two updates a second on the way.
            _ = try awaitUpdate(dock, "the last percent") { $0.progress == 0.99 }
            let seconds = Double((ContinuousClock.now - started).components.seconds) + 1
            let updates = dock.signals.compactMap(Heard.init).filter { $0.isVisible == true }.count - 1
            #expect(Double(updates) <= 2 * seconds + 1, "\(updates) updates in \(seconds) s")
            _ = (service, tray, run)
        }

        @Test func atSIGTERMEveryAppShownIsHiddenAndAfterACrashTheNextRunHidesIt() throws {
            let service = try DaemonProcess(bus: bus)
            let dock = try dock()
            let first = try tray()
            let run = try BackgroundProcess(Paths.cli, ["run", "--label", "backup", "--", "sleep", "60"], bus: bus)
            let client = try RawClient(bus)
            let id = try #require(try awaitID(client))
            _ = try client.call(ServiceMembers.setProgress.name) { $0.append(id); $0.append(UInt32(45)) }
            _ = try awaitUpdate(dock, "progress shown") { $0.isVisible == true }
            first.process.process.terminate()
            _ = try awaitUpdate(dock, "hidden at SIGTERM") { $0.isVisible == false }

            // A crash says nothing; the next run hides what the last one left shown, before it shows anything.
            let second = try tray()
            let shownBySecond = try dock.awaitMessage("shown by the second run") { Heard($0)?.isVisible == true }
            kill(second.process.process.processIdentifier, SIGKILL)
            try dock.awaitRelease(of: try #require(shownBySecond.sender))
            let third = try tray()
            _ = try awaitUpdate(dock, "hidden by the run after the crash") { $0.isVisible == false }
            _ = (service, run, third)
        }

        @Test func anAppThatShowsItsOwnProgressIsLeftAlone() throws {
            let service = try DaemonProcess(bus: bus)
            let dock = try dock()
            let tray = try tray()
            let run = try BackgroundProcess(Paths.cli, ["run", "--label", "backup", "--", "sleep", "60"], bus: bus)
            let client = try RawClient(bus)
            let id = try #require(try awaitID(client))
            _ = try client.call(ServiceMembers.setProgress.name) { $0.append(id); $0.append(UInt32(10)) }
            _ = try awaitUpdate(dock, "progress shown") { $0.isVisible == true }
            // The app sends its own.
            let app = try bus.connect()
            let own = Message.signal(path: "/com/canonical/unity/launcherentry/1",
                                     interface: "com.canonical.Unity.LauncherEntry", member: "Update")
            own.appendArguments { writer in
                writer.append("application://netactivity.desktop")
                writer.append(["progress": Variant(0.7), "progress-visible": Variant(true)])
            }
            app.send(own)
            app.flush()
            try tray.process.awaitStderr("shows its own progress for netactivity")
            _ = try client.call(ServiceMembers.setProgress.name) { $0.append(id); $0.append(UInt32(90)) }
            // The tray stops: everything it sent is in before its departure, and none of it is of the app's.
            try dock.settle()
            let traySender = try #require(dock.signals.first { Heard($0) != nil && $0.sender != app.uniqueName }?.sender)
            let heardBefore = dock.signals.filter { $0.sender == traySender && Heard($0) != nil }.count
            tray.process.process.terminate()
            try dock.awaitRelease(of: traySender)
            let heardAfter = dock.signals.filter { $0.sender == traySender }.compactMap(Heard.init)
            #expect(heardAfter.count == heardBefore, "the tray said more of the app: \(heardAfter)")
            _ = (service, run)
        }

        /// A notification server that draws no bars (GNOME Shell): the option says so once, and sends nothing.
        @Test func progressNotificationsSendNothingToAServerThatDrawsNoBars() throws {
            let service = try DaemonProcess(bus: bus)
            let server = try notificationServer(TwoValues("gnome-shell", "GNOME"), version: "43.9", notification: 1)
            let tray = try tray(["--progress-notifications"])
            let run = try BackgroundProcess(Paths.cli, ["run", "--label", "backup", "--", "sleep", "60"], bus: bus)
            let client = try RawClient(bus)
            let id = try #require(try awaitID(client))
            _ = try client.call(ServiceMembers.setProgress.name) { $0.append(id); $0.append(UInt32(45)) }
            try server.awaitCall("GetCapabilities")
            try tray.process.awaitStderr("gnome-shell draws no progress bars")
            _ = try client.call(ServiceMembers.setProgress.name) { $0.append(id); $0.append(UInt32(60)) }
            try tray.process.awaitStderr("1 active")
            run.process.terminate()
            try server.settle()
            #expect(!server.calls.contains { $0.member == "Notify" }, "\(server.calls.compactMap(\.member))")
            #expect(tray.process.stderr.components(separatedBy: "draws no progress bars").count == 2)
            _ = service
        }

        /// The bubble's Stop, chosen in a server that offers actions, asks the activity's owner to stop it.
        @Test func theBubblesStopActionStopsTheRun() throws {
            let service = try DaemonProcess(bus: bus)
            let server = try notificationServer(TwoValues("dunst", "dunst"), version: "1.9.0", notification: 7)
            let tray = try tray(["--progress-notifications"])
            let run = try BackgroundProcess(Paths.cli, ["run", "--label", "backup", "--", "sleep", "60"], bus: bus)
            let client = try RawClient(bus)
            let id = try #require(try awaitID(client))
            _ = try client.call(ServiceMembers.setProgress.name) { $0.append(id); $0.append(UInt32(45)) }
            let notify = try server.awaitMessage("a Notify with Stop") { message in
                guard message.member == "Notify" else { return false }
                var arguments = message.arguments()
                for _ in 0..<5 { arguments.skip() }
                return (try? arguments.read([String].self))?.contains("stop") == true
            }
            #expect(notify.member == "Notify")
            let action = Message.signal(path: "/org/freedesktop/Notifications",
                                        interface: "org.freedesktop.Notifications", member: "ActionInvoked")
            action.appendArguments { $0.append(UInt32(7)); $0.append("stop") }
            server.connection.send(action)
            server.connection.flush()
            #expect(run.exitStatus() == 143, "the run was not stopped: \(tray.process.stderr)")
            _ = service
        }

        /// A notification server named `name` (its name and vendor) that offers actions and answers each `Notify`
        /// with `notification`.
        private func notificationServer(_ name: TwoValues<String, String>, version: String, notification: UInt32)
            throws -> FakePeer
        {
            try FakePeer(bus, owning: "org.freedesktop.Notifications", answers: [
                "GetServerInformation": { $0.makeReturn(with: TwoValues(name, TwoValues(version, "1.2"))) },
                "GetCapabilities": { $0.makeReturn(with: ["actions", "body"]) },
                "Notify": { $0.makeReturn(with: notification) },
            ])
        }

        /// The id of the run's activity: listed already, or awaited in the service's `ActivitiesChanged` (the
        /// listener subscribes before the list is read, so a Begin after the read is heard).
        private func awaitID(_ client: RawClient) throws -> UInt32? {
            let listener = try SignalListener(bus)
            if let id = try client.list().first?.id { return id }
            let begun = try listener.next { (try? ActivityChangeReport($0))?.changed.isEmpty == false }
            return try begun.flatMap { try ActivityChangeReport($0).changed.first?.id }
        }
    }
}
