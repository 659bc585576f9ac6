import DBusKit
import Foundation
import ServiceHarness
import Testing

extension Integration {
    /// The notifications of `netactivity run --notify` and `netactivity-tray --notify-after`, as a notification
    /// server played by the test receives them (the real dunst shows them on screen in `HostRenderingTests`).
    @Suite("Desktop notifications")
    struct NotificationTests {
        static func notificationServer(_ bus: PrivateBus) throws -> FakePeer {
            try FakePeer(bus, owning: "org.freedesktop.Notifications", answers: [
                "Notify": { $0.makeReturn(with: UInt32(7)) },
            ])
        }

        /// A `Notify` call's arguments.
        struct Notify {
            let replaces: UInt32, icon: String, summary: String, body: String, urgency: UInt8?

            init(_ call: Message) throws {
                var arguments = call.arguments()
                #expect(try arguments.read(String.self) == "netactivity")
                replaces = try arguments.read(UInt32.self)
                icon = try arguments.read(String.self)
                summary = try arguments.read(String.self)
                body = try arguments.read(String.self)
                _ = try arguments.read([String].self)
                urgency = try arguments.read([String: ReceivedVariant].self)["urgency"].map { try $0.decode(UInt8.self) }
            }
        }

        @Test func runNotifySaysWhatRanForHowLongAndHowItEnded() throws {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus)
            let server = try Self.notificationServer(bus)

            let success = try netactivity(bus, "run", "--notify", "--label", "fetch <all>", "--", "/bin/true")
            #expect(success.succeeded, "\(success)")
            let done = try Notify(try server.awaitCall("Notify"))
            #expect(done.summary == "fetch <all> finished")
            #expect(done.body.hasPrefix("/bin/true ran for 0."), "\(done.body)")
            #expect(done.urgency == 1)
            #expect(done.icon == "network-transmit-receive")

            let failure = try netactivity(bus, "run", "--notify", "--", "/bin/sh", "-c", "exit 3")
            #expect(failure.status == 3)
            let failed = try Notify(try server.awaitCall("Notify"))
            #expect(failed.summary == "sh failed")
            #expect(failed.body.hasSuffix(", exit status 3"), "\(failed.body)")
            #expect(failed.urgency == 2, "a failure is critical")
            _ = service
        }

        @Test func runNotifyWithoutAServerRunsAsEver() throws {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus)
            let result = try netactivity(bus, "run", "--notify", "--", "/bin/sh", "-c", "echo ran")
            #expect(result.succeeded && result.stdout == "ran\n" && result.stderr.isEmpty, "\(result)")
            _ = service
        }

        @Test func theTrayNamesLongActivitiesWhenTheyEnd() throws {
            let bus = try PrivateBus()
            let watcher = try TrayProcess.watcher(bus)
            let server = try Self.notificationServer(bus)
            let tray = try InProcessTray(bus, notifyAfter: .seconds(1))
            // By its unique name, which serves the item in and out of the tray.
            let item = try ItemProbe(bus, itemName: tray.uniqueName)
            let (quick, backup) = (tray.activity(1, "quick"), tray.activity(2, "backup"))
            try tray.show(InProcessTray.state([quick, backup]))
            try watcher.awaitCall("RegisterStatusNotifierItem")
            try tray.show(InProcessTray.state([backup]))
            // An activity has to last before its end is worth telling.
            try tray.advance(by: .milliseconds(1100))
            try tray.show(InProcessTray.state([]))
            let first = try Notify(try server.awaitCall("Notify"))
            #expect(first.summary == "backup finished after 1 s", "quick was too short to tell")
            #expect(first.replaces == 0)
            // The server's answer reaches the tray before a call sent after it: the tray knows the notice's id.
            try server.settle()
            _ = try item.property("Id")

            let nightly = tray.activity(3, "nightly")
            try tray.show(InProcessTray.state([nightly]))
            try tray.advance(by: .milliseconds(1100))
            try tray.show(InProcessTray.state([]))
            let second = try Notify(try server.awaitCall("Notify"))
            #expect(second.summary == "nightly finished after 1 s")
            #expect(second.replaces == 7, "it replaces the one before")

            // The amount moved, when the activity told it.
            try tray.show(InProcessTray.state([tray.activity(4, "download", done: 1_200_000_000)]))
            try tray.advance(by: .milliseconds(1100))
            try tray.show(InProcessTray.state([]))
            #expect(try Notify(try server.awaitCall("Notify")).summary == "download finished: 1.2 GB in 1 s")
            try server.settle()
            #expect(server.calls.count == 3)
        }
    }
}
