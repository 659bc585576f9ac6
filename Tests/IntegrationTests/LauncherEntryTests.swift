import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness
import Testing

extension Integration {
    /// Apps that show progress on their launcher (`com.canonical.Unity.LauncherEntry.Update`), as Chromium does
    /// for its downloads, played by a dbus-python program: the service follows the apps listed, one activity per
    /// sender and app, and ignores the rest, however much of it comes.
    @Suite("Progress on a launcher") struct LauncherEntryTests {
        let bus: PrivateBus
        /// A desktop file for Chromium, so that the activity is labelled with its name as the person knows it.
        let dataHome: URL

        init() throws {
            bus = try PrivateBus()
            dataHome = bus.directory.appendingPathComponent("data")
            let applications = dataHome.appendingPathComponent("applications")
            try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
            try "[Desktop Entry]\nType=Application\nName=Chromium Web Browser\nExec=chromium\n"
                .write(to: applications.appendingPathComponent("chromium.desktop"), atomically: true, encoding: .utf8)
        }

        func service(_ arguments: [String] = []) throws -> DaemonProcess {
            try DaemonProcess(bus: bus, arguments: DaemonProcess.noDelays + ["--log-level", "debug"] + arguments,
                              environment: ["XDG_DATA_HOME": dataHome.path])
        }

        /// Waits until the service's activities satisfy `condition`, reading them again at each `ActivitiesChanged`.
        @discardableResult
        func awaitActivities(
            _ what: String, _ client: RawClient, _ listener: SignalListener,
            _ condition: ([ActivityDetails]) -> Bool
        ) throws -> [ActivityDetails] {
            let deadline = ContinuousClock.now + .seconds(10)
            while true {
                let details = try client.details()
                if condition(details) { return details }
                guard ContinuousClock.now < deadline else { throw TestFailure("never \(what): \(details)") }
                _ = try listener.next(timeout: .milliseconds(500)) { ServiceMembers.activitiesChanged.matches($0) }
            }
        }

        @Test func aListedAppsProgressIsOneActivityWhileItShows() throws {
            let daemon = try service()
            let listener = try SignalListener(bus)
            let client = try RawClient(bus)
            let browser = try LauncherEmitter(bus)
            let watch = try BackgroundProcess(Paths.cli, ["watch", "--format", "json"], bus: bus)

            try browser.show("chromium", 0.45)
            let shown = try awaitActivities("a launcher activity", client, listener) { $0.count == 1 }
            let activity = try #require(shown.first)
            #expect(activity.label == "Chromium Web Browser")
            #expect(activity.application == "chromium" && activity.source == "launcher")
            #expect(activity.percent == 45 && !activity.isCancellable)
            #expect(activity.owner == browser.name && activity.user == getuid())
            try listener.awaitVisibility(true)
            // `watch` prints a line per change; one of them has it, marked.
            var watched: String?
            while watched == nil, let line = try watch.nextLine() {
                if line.contains("\"source\":\"launcher\"") { watched = line }
            }
            #expect(watched?.contains("\"percent\":45") == true, "\(watch.lines)")

            // An update carries only what changed; the same sender and app stay one activity.
            try browser.send("chromium", ["progress": "d:0.8"])
            try awaitActivities("80 %", client, listener) { $0.map(\.percent) == [80] && $0.first?.id == activity.id }
            // `netactivity status` and a client nobody here wrote read it too.
            let status = try runTool(Paths.cli.path, ["status", "--json"], bus: bus)
            #expect(status.stdout.contains("\"source\":\"launcher\""), "\(status)")
            let gdbus = try runTool("/usr/bin/gdbus", ["call", "--address", bus.address, "--dest",
                                                      ServiceNames.busName.rawValue, "--object-path",
                                                      ServiceNames.objectPath.rawValue, "--method",
                                                      "org.example.NetworkActivity.GetActivities"], bus: nil)
            #expect(gdbus.stdout.contains("'source': <'launcher'>"), "\(gdbus)")

            try browser.send("chromium", ["progress-visible": "b:false"])
            try awaitActivities("no activity", client, listener) { $0.isEmpty }
            try listener.awaitVisibility(false)
            // Shown again, it is a new activity.
            try browser.show("chromium", 0.1)
            let again = try awaitActivities("the second download", client, listener) { $0.count == 1 }
            #expect(again.first?.id != activity.id && again.first?.percent == 10)
            #expect(daemon.isRunning)
        }

        @Test func theSendersDepartureEndsItsProgress() throws {
            let daemon = try service()
            let listener = try SignalListener(bus)
            let client = try RawClient(bus)
            let browser = try LauncherEmitter(bus)
            let other = try LauncherEmitter(bus)
            try browser.show("chromium", 0.3)
            try other.show("google-chrome", 0.6)
            try awaitActivities("two activities", client, listener) { $0.count == 2 }
            browser.process.process.terminate()
            let left = try awaitActivities("one left", client, listener) { $0.count == 1 }
            #expect(left.first?.application == "google-chrome" && left.first?.owner == other.name)
            // Its entry in the history says so, with the percent it had.
            let history = try client.call(ServiceMembers.getHistory.serviceCall(0))
            #expect(history.map(\.outcome) == ["left"] && history.first?.application == "chromium"
                    && history.first?.percent == 30 && history.first?.source == "launcher", "\(history)")
            #expect(daemon.isRunning)
        }

        @Test func anAppNotListedShowsNothingUnlessListed() throws {
            let daemon = try service()
            let client = try RawClient(bus)
            let editor = try LauncherEmitter(bus)
            try editor.show("org.gnome.TextEditor", 0.5)
            #expect(try client.details().isEmpty)
            try editor.show("chromium", 0.2)
            #expect(try client.details().map(\.application) == ["chromium"])
            #expect(daemon.isRunning)

            let listing = try PrivateBus()
            let listed = try DaemonProcess(bus: listing, arguments: DaemonProcess.noDelays
                                           + ["--launcher-apps", "org.gnome.TextEditor"])
            let listedClient = try RawClient(listing)
            let listedEditor = try LauncherEmitter(listing)
            try listedEditor.show("chromium", 0.2)
            try listedEditor.show("org.gnome.TextEditor", 0.5)
            #expect(try listedClient.details().map(\.application) == ["org.gnome.TextEditor"], "\(listed.log)")
        }

        @Test func noSourceLauncherFollowsNone() throws {
            let daemon = try service(["--no-source", "launcher"])
            let client = try RawClient(bus)
            let browser = try LauncherEmitter(bus)
            try browser.show("chromium", 0.5)
            #expect(try client.details().isEmpty, "\(daemon.log)")
        }

        @Test func wrongTypesAndFloodsAreIgnoredAndBounded() throws {
            let daemon = try service(["--max-per-user", "3"])
            let listener = try SignalListener(bus)
            let client = try RawClient(bus)
            let browser = try LauncherEmitter(bus)
            try browser.show("chromium", 0.4)
            try awaitActivities("Chromium's activity", client, listener) { $0.map(\.percent) == [40] }

            // Wrong types and values change nothing.
            try browser.send("chromium", ["progress": "s:half"])
            try browser.send("chromium", ["progress": "d:1.5"])
            try browser.send("chromium", ["progress-visible": "i:0"])
            try browser.send("brave-browser", ["progress": "d:0.3", "progress-visible": "s:yes"])
            try browser.sendRaw("not a launcher entry")
            try daemon.awaitLog("sent a progress for chromium that is no number")
            try daemon.awaitLog("sent a progress of 1.5 for chromium, out of 0 to 1")
            try daemon.awaitLog("sent a progress-visible for chromium that is no boolean")
            try daemon.awaitLog("sent a launcher entry update of signature s")
            #expect(try client.details().map(\.percent) == [40])

            // A flood of updates for every browser: at most one activity per app, within the user's quota with
            // the activity a caller holds, and the service answers meanwhile.
            let held = try client.begin("backup")
            let flood = try browser.flood(apps: ["chromium", "google-chrome", "brave-browser", "vivaldi-stable"],
                                          updates: 5000)
            #expect(flood == 20000)
            try browser.ping()
            let details = try client.details()
            #expect(details.count <= 3 && details.contains { $0.id == held }, "\(details)")
            let shown = details.filter { $0.source == "launcher" }
            #expect(shown.count == details.count - 1 && Set(shown.compactMap(\.application)).count == shown.count)
            #expect(daemon.isRunning)
            #expect(try client.property(ServiceMembers.activeCount.name, as: UInt32.self) <= 3)
        }
    }
}

/// A program of dbus-python's that sends `com.canonical.Unity.LauncherEntry.Update` as libunity does for Chromium
/// (from `/com/canonical/unity/launcherentry/<n>`), one signal per command on its input, and says `sent` once the
/// service has read them: it pings the service after, and the bus delivers one sender's messages to one receiver
/// in order.
final class LauncherEmitter {
    let process: BackgroundProcess
    let name: String

    init(_ bus: PrivateBus) throws {
        process = try BackgroundProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", """
            import dbus, sys
            bus = dbus.bus.BusConnection(sys.argv[1])
            types = {'d': dbus.Double, 'b': lambda v: dbus.Boolean(v == 'true'), 's': dbus.String, 'i': dbus.Int32}
            def update(uri, properties):
                message = dbus.lowlevel.SignalMessage('/com/canonical/unity/launcherentry/1',
                                                      'com.canonical.Unity.LauncherEntry', 'Update')
                message.append(dbus.String(uri), dbus.Dictionary(properties, signature='sv'))
                bus.send_message(message)
            print(bus.get_unique_name(), flush=True)
            for line in sys.stdin:
                words = line.split()
                if words[0] == 'send':
                    update('application://%s.desktop' % words[1],
                           {key: types[value[0]](value[2:]) for key, value in (w.split('=', 1) for w in words[2:])})
                elif words[0] == 'raw':
                    message = dbus.lowlevel.SignalMessage('/com/canonical/unity/launcherentry/1',
                                                          'com.canonical.Unity.LauncherEntry', 'Update')
                    message.append(dbus.String(' '.join(words[1:])))
                    bus.send_message(message)
                elif words[0] == 'flood':
                    count = 0
                    for n in range(int(words[1])):
                        for app in words[2:]:
                            update('application://%s.desktop' % app, {'progress': dbus.Double(n % 100 / 100),
                                                                      'progress-visible': dbus.Boolean(True)})
                            count += 1
                    print(count, flush=True)
                    continue
                bus.call_blocking('org.example.NetworkActivity', '/org/example/NetworkActivity',
                                  'org.freedesktop.DBus.Peer', 'Ping', '', ())
                print('sent', flush=True)
            """, bus.address], bus: bus, takesInput: true)
        name = try process.nextLine() ?? ""
        guard name.hasPrefix(":") else { throw TestFailure("the emitter said \"\(name)\": \(process.stderr)") }
    }

    /// Sends an update of `app` with `properties` written `d:0.5`, `b:true`, `s:text`, `i:1`.
    func send(_ app: String, _ properties: [String: String]) throws {
        process.write((["send", app] + properties.map { "\($0.key)=\($0.value)" }).joined(separator: " "))
        try awaitSent()
    }

    func show(_ app: String, _ progress: Double) throws {
        try send(app, ["progress": "d:\(progress)", "progress-visible": "b:true"])
    }

    /// Sends an `Update` with the wrong arguments: one string.
    func sendRaw(_ text: String) throws {
        process.write("raw \(text)")
        try awaitSent()
    }

    /// Sends `updates` updates of each of `apps`, as fast as it can; returns how many it sent.
    func flood(apps: [String], updates: Int) throws -> Int? {
        process.write((["flood", String(updates)] + apps).joined(separator: " "))
        return try process.nextLine(timeout: .seconds(60)).flatMap { Int($0) }
    }

    /// Waits until the service has read everything the program sent.
    func ping() throws {
        process.write("ping")
        try awaitSent()
    }

    private func awaitSent() throws {
        let line = try process.nextLine()
        guard line == "sent" else { throw TestFailure("the emitter said \"\(line ?? "nothing")\": \(process.stderr)") }
    }
}
