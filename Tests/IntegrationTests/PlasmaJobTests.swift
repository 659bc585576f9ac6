import NetworkActivityInterface
import DBusKit
import Foundation
import ServiceHarness
import Testing

extension Integration {
    /// The tray's bridge to KDE Plasma's job tracker, against a server the test plays with the interface of Plasma
    /// 5.27's (`org.kde.JobViewServer` and `org.kde.JobViewV2`, as plasma-workspace's libnotificationmanager
    /// declares them); Plasma itself draws the jobs in `Tests/Rendering` (HostRenderingTests).
    @Suite("netactivity-tray: activities as jobs in Plasma's job tracker")
    struct PlasmaJobTests {
        static let serverName: BusName = "org.kde.JobViewServer"

        /// A job view server that gives views the paths `/JobViewServer/JobView_N`.
        static func server(_ bus: PrivateBus) throws -> FakePeer {
            let views = ViewCounter()
            return try FakePeer(bus, owning: serverName, answers: [
                "requestView": { call in
                    call.makeReturn(with: ObjectPath(stringLiteral: "/JobViewServer/JobView_\(views.next())"))
                },
            ])
        }

        /// The calls to the view at `path`, by member, with their arguments as gdbus would print them.
        static func viewCalls(_ server: FakePeer, _ path: String) -> [Message] {
            server.calls.filter { $0.path == path && $0.interface == "org.kde.JobViewV2" }
        }

        @Test func aCancellableActivityWithProgressIsAJobThatPlasmaCanStop() throws {
            let bus = try PrivateBus()
            let server = try Self.server(bus)
            let service = try DaemonProcess(bus: bus)
            let tray = try TrayProcess(bus, arguments: [])
            let client = try RawClient(bus)
            // Not a job: no progress, and nobody to stop it.
            _ = try client.begin("plain")
            let run = try BackgroundProcess(Paths.cli, ["run", "--label", "backup", "--", "sleep", "60"], bus: bus)
            let request = try server.awaitCall("requestView")
            var arguments = request.arguments()
            #expect(try arguments.read(String.self) == "netactivity")
            #expect(try arguments.read(String.self) == "network-transmit-receive")
            #expect(try arguments.read(Int32.self) == 1, "Killable, since run stops its command when asked")
            let path = "/JobViewServer/JobView_1"
            let message = try server.awaitMessage("setInfoMessage") { $0.member == "setInfoMessage" }
            var label = message.arguments()
            #expect(message.path == path)
            #expect(try label.read(String.self) == "backup")

            let id = try #require(try client.list().first { $0.label == "backup" }?.id)
            _ = try client.call(ServiceMembers.setTransfer.name) {
                $0.append(id); $0.append(UInt64(450_000_000)); $0.append(UInt64(1_000_000_000))
            }
            let percent = try server.awaitMessage("setPercent") { $0.member == "setPercent" }
            var value = percent.arguments()
            #expect(try value.read(UInt32.self) == 45)
            let amounts = Self.viewCalls(server, path).compactMap { call -> String? in
                guard call.member == "setTotalAmount" || call.member == "setProcessedAmount" else { return nil }
                var arguments = call.arguments()
                return "\(call.member!) \((try? arguments.read(UInt64.self)) ?? 0) \((try? arguments.read(String.self)) ?? "")"
            }
            #expect(amounts == ["setTotalAmount 1000000000 bytes", "setProcessedAmount 450000000 bytes"])
            #expect(server.calls.filter { $0.member == "requestView" }.count == 1, "the plain activity is no job")

            // Plasma's cancel button: the view's signal, from the server.
            let cancel = Message.signal(path: ObjectPath(stringLiteral: path), interface: "org.kde.JobViewV2",
                                        member: "cancelRequested")
            server.connection.send(cancel)
            #expect(run.exitStatus() == 143, "the owner stopped its command: \(run.stderr)")
            try server.awaitMessage("terminate") { $0.member == "terminate" && $0.path == path }
            _ = (service, tray)
        }

        @Test func theFlagTurnsTheBridgeOff() throws {
            let bus = try PrivateBus()
            let server = try Self.server(bus)
            let service = try DaemonProcess(bus: bus)
            let watcher = try TrayProcess.watcher(bus)
            let tray = try TrayProcess(bus, arguments: ["--no-job-tracker"])
            let run = try BackgroundProcess(Paths.cli, ["run", "--label", "backup", "--", "sleep", "60"], bus: bus)
            // Once the tray has shown the activity, a job would have been asked for before.
            try watcher.awaitCall("RegisterStatusNotifierItem")
            _ = try tray.property("Id")
            try server.settle()
            #expect(server.calls.isEmpty, "\(server.calls.compactMap(\.member))")
            _ = (service, run)
        }
    }
}

/// Numbers views from 1, from the thread that answers calls.
private final class ViewCounter: @unchecked Sendable {
    private var last = 0
    func next() -> Int {
        last += 1
        return last
    }
}
