import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness
import Testing

extension Integration {
    /// A netactivityd on a session bus also counts the activities of the one on the system bus: a private
    /// system-like bus with the project's policy and a private session bus, each with its own netactivityd.
    /// Waits for the session service to announce `count` activities (`PropertiesChanged`).
    static func awaitActiveCount(_ count: UInt32, _ listener: SignalListener) throws {
        let announced = try listener.next { message in
            guard message.member == StandardInterface.propertiesChanged.name.rawValue else { return false }
            var arguments = message.arguments()
            arguments.skip()
            let changed = (try? arguments.read([String: ReceivedVariant].self)) ?? [:]
            return (try? changed[ServiceMembers.activeCount.name]?.decode(UInt32.self)) == count
        }
        guard announced != nil else { throw TestFailure("ActiveCount \(count) was not announced") }
    }

    @Suite("System activity in the user's indicator",
           .enabled(if: geteuid() == 0, "the system bus's policy lets only root own the service's name"))
    struct SystemActivityTests {
        let system: PrivateBus
        let session: PrivateBus

        init() throws {
            system = try systemLikeBus(including: [systemPolicy])
            session = try PrivateBus()
        }

        func systemService() throws -> DaemonProcess {
            try DaemonProcess(bus: system, systemBus: true)
        }

        func sessionService(_ arguments: [String] = []) throws -> DaemonProcess {
            try DaemonProcess(bus: session, arguments: DaemonProcess.noDelays + arguments,
                              environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.address])
        }

        @Test func rootsActivityOnTheSystemBusShowsInTheSessionsIndicatorAndIsNotEndedThere() throws {
            let systemDaemon = try systemService()
            let sessionDaemon = try sessionService()
            let listener = try SignalListener(session)
            let root = try RawClient(system)
            let user = try RawClient(session)

            let update = try root.beginTimed("apt-get update", seconds: 600)
            try listener.awaitVisibility(true)
            #expect(try user.activeCount == 1)
            let listed = try user.list()
            #expect(listed.count == 1)
            let record = try #require(listed.first)
            #expect(record.id == update && record.label == "apt-get update")
            #expect(record.owner == "system:" + root.connection.uniqueName)
            let status = try #require(try user.details().first)
            #expect(status.id == update && status.isSystem && status.owner == record.owner && status.user == 0)
            // Seen, never changed from the session bus.
            for (member, arguments) in [(ServiceMembers.setProgress.name, ["uint32:5"]), (ServiceMembers.setTransfer.name, ["uint64:1", "uint64:2"]),
                                        (ServiceMembers.setCancellable.name, ["boolean:true"]), (ServiceMembers.requestCancel.name, [])] {
                let refused = try dbusSend(session, member, arguments: ["uint32:\(update)"] + arguments)
                #expect(refused.stderr.contains("org.example.NetworkActivity.Error.NotOwner"), "\(member): \(refused)")
            }

            // Counted with the session's own.
            let mine = try user.begin("mail")
            #expect(try user.activeCount == 2)
            #expect(Set(try user.list().map(\.owner)) == ["system:" + root.connection.uniqueName,
                                                          user.connection.uniqueName])

            // Never ended from the session bus.
            let refused = try dbusSend(session, ServiceMembers.end.name, "uint32:\(update)")
            #expect(refused.stderr.contains("org.example.NetworkActivity.Error.NotOwner"), "\(refused)")
            #expect(try user.cancel() == 1)
            var reset = try user.call(ServiceMembers.reset.name)
            #expect(try reset.read(UInt32.self) == 0)
            #expect(try user.activeCount == 1)
            #expect(try user.property(ServiceMembers.visible.name, as: Bool.self))

            // Ended on the system bus, it leaves the session's count.
            try root.end(update)
            try listener.awaitVisibility(false)
            #expect(try user.activeCount == 0)
            try sessionDaemon.awaitLog("following the system service")
            _ = (systemDaemon, mine)
        }

        @Test func theSystemServiceMayStartStopRestartOrDieAtAnyTime() throws {
            // The session service first: the system service is not running.
            let sessionDaemon = try sessionService()
            let listener = try SignalListener(session)
            let user = try RawClient(session)
            var systemDaemon: DaemonProcess? = try systemService()
            var root: RawClient? = try RawClient(system)
            _ = try root?.begin("backup")
            try listener.awaitVisibility(true)
            #expect(try user.activeCount == 1)

            // Stopped while holding an activity: it leaves the count at once.
            systemDaemon?.send(SIGTERM)
            try listener.awaitVisibility(false)
            #expect(try user.activeCount == 0)
            root = nil
            systemDaemon = nil

            // Restarted; then killed while holding two.
            systemDaemon = try systemService()
            root = try RawClient(system)
            _ = try root?.begin("backup")
            _ = try root?.beginTimed("sync", seconds: 600)
            try listener.awaitVisibility(true)
            try Integration.awaitActiveCount(2, listener)
            systemDaemon?.send(SIGKILL)
            try listener.awaitVisibility(false)
            #expect(try user.activeCount == 0)

            let log = sessionDaemon.log
            #expect(log.components(separatedBy: "following the system service :").count - 1 == 2, "\(log)")
            #expect(log.components(separatedBy: "its activities leave the count").count - 1 == 2, "\(log)")
            _ = root
        }

        /// The system service keeps root's leases across a SIGKILL (in its state directory, as in /run/netactivity),
        /// and the session service counts them again when it returns.
        @Test func theSystemServiceTakesRootsLeasesBackAndTheSessionCountsThemAgain() throws {
            let sessionDaemon = try sessionService()
            let listener = try SignalListener(session)
            let user = try RawClient(session)
            let systemDaemon = try systemService()
            var leases: [UInt32] = []
            for index in 0..<3 {
                let begun = try dbusSend(system, ServiceMembers.beginWithTimeout.name, "string:apt-get update \(index)", "uint32:600")
                leases.append(try #require(replyNumber(begun), "\(begun)"))
            }
            try Integration.awaitActiveCount(3, listener)
            systemDaemon.send(SIGKILL)
            try Integration.awaitActiveCount(0, listener)

            let restarted = try systemService()
            try Integration.awaitActiveCount(3, listener)
            #expect(try user.list().map(\.id).sorted() == leases.sorted())
            #expect(try RawClient(system).list().map(\.id) == leases, "root's leases, with their ids")
            try restarted.awaitLog("took over 3 saved there")
            _ = sessionDaemon
        }

        @Test func withoutASystemBusTheSessionServiceWorksAlone() throws {
            let sessionDaemon = try DaemonProcess(bus: session)
            let user = try RawClient(session)
            _ = try user.begin("mail")
            #expect(try user.activeCount == 1)
            try sessionDaemon.awaitLog("no system bus")
        }

        @Test func noSystemTurnsTheFollowingOff() throws {
            let systemDaemon = try systemService()
            let root = try RawClient(system)
            _ = try root.begin("backup")
            let sessionDaemon = try sessionService(["--no-system"])
            let user = try RawClient(session)
            #expect(try user.activeCount == 0)
            #expect(!sessionDaemon.log.contains("system"), "\(sessionDaemon.log)")
            _ = systemDaemon
        }

        /// A system service that owns the name and never answers leaves the session service free: it answers its
        /// own callers while its question to the system service is still waiting (which ends, 5 s later, with
        /// the warning awaited here).
        @Test func aSystemServiceThatNeverAnswersLeavesTheSessionServiceResponsive() throws {
            let silent = try system.connect()
            #expect(try silent.requestName(ServiceNames.busName, flags: .doNotQueue) == .primaryOwner)
            let sessionDaemon = try sessionService()
            let user = try RawClient(session)
            try sessionDaemon.awaitLog("following the system service")
            for _ in 0..<20 {
                _ = try user.call(StandardInterface.ping.name, interface: "org.freedesktop.DBus.Peer")
                _ = try user.begin("mail")
            }
            #expect(try user.activeCount == 20)
            #expect(!sessionDaemon.log.contains("did not list its activities"),
                    "the calls were answered only after the question to the system service had ended")
            try sessionDaemon.awaitLog("did not list its activities", timeout: .seconds(30))
            _ = (silent, sessionDaemon)
        }

        @Test func statusShowsBothKindsMarked() throws {
            let systemDaemon = try systemService()
            let sessionDaemon = try sessionService()
            let listener = try SignalListener(session)
            let root = try RawClient(system)
            _ = try root.begin("unattended-upgrades")
            try listener.awaitVisibility(true)
            let user = try RawClient(session)
            _ = try user.begin("mail")
            let status = try netactivity(session, "status")
            #expect(status.stdout.contains("active: 2"), "\(status)")
            #expect(status.stdout.contains("system:" + root.connection.uniqueName), "\(status)")
            #expect(status.stdout.contains("unattended-upgrades") && status.stdout.contains("mail"), "\(status)")
            _ = (systemDaemon, sessionDaemon)
        }
    }
}
