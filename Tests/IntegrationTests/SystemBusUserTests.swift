import NetworkActivityInterface
import DBusKit
import Foundation
import ServiceHarness
import Testing

extension Integration {
    /// docs/reliability.md: on the system bus callers are different Unix users. The service runs
    /// with `--system` on a system-like private bus with the project's policy; the callers are `nobody` and a
    /// throwaway user made for the test, neither of them root.
    @Suite("Who may do what on the system bus", .enabled(if: geteuid() == 0, "needs root to run callers as other users"))
    struct SystemBusUserTests {
        let bus: PrivateBus
        let service: DaemonProcess
        let other: ThrowawayUser

        init() throws {
            bus = try systemLikeBus(including: [systemPolicy])
            service = try DaemonProcess(bus: bus, systemBus: true)
            other = try ThrowawayUser()
        }

        @Test func aCallerCannotEndOrCancelAnotherUsersActivity() throws {
            // A real client of the user nobody holds an activity while it runs: busctl's call ends with it, so
            // a timed one stands in, and the bound case is the test's own connection (root).
            let owner = try RawClient(bus)
            let bound = try owner.begin("root's")
            let timed = replyNumber(try dbusSend(as: "nobody", bus, ServiceMembers.beginWithTimeout.name, "string:nobody's", "uint32:600"))
            let timedID = try #require(timed)

            for id in [bound, timedID] {
                let refused = try dbusSend(as: other.name, bus, ServiceMembers.end.name, "uint32:\(id)")
                #expect(refused.stderr.contains("org.example.NetworkActivity.Error.NotOwner"), "\(refused)")
            }
            let cancelled = try dbusSend(as: other.name, bus, ServiceMembers.cancel.name)
            #expect(replyNumber(cancelled) == 0, "\(cancelled)")
            #expect(try owner.activeCount == 2)
            _ = service
        }

        @Test func aTimedActivityIsEndedByAnyConnectionOfItsUserOnly() throws {
            let begun = try dbusSend(as: other.name, bus, ServiceMembers.beginWithTimeout.name, "string:sync", "uint32:600")
            let id = try #require(replyNumber(begun), "\(begun)")
            // That dbus-send has left the bus; the activity lives on to its deadline.
            let byNobody = try dbusSend(as: "nobody", bus, ServiceMembers.end.name, "uint32:\(id)")
            #expect(byNobody.stderr.contains("org.example.NetworkActivity.Error.NotOwner"), "\(byNobody)")
            let root = try RawClient(bus)
            #expect(throws: DBusError.self) { try root.end(id) }
            #expect(try root.activeCount == 1)

            let bySameUser = try dbusSend(as: other.name, bus, ServiceMembers.end.name, "uint32:\(id)")
            #expect(bySameUser.succeeded, "\(bySameUser)")
            #expect(try root.activeCount == 0)
        }

        @Test func progressAndCancelRequestsFollowTheActivitysUser() throws {
            let begun = try dbusSend(as: "nobody", bus, ServiceMembers.beginWithTimeout.name, "string:nobody's", "uint32:600")
            let lease = try #require(replyNumber(begun), "\(begun)")
            let notOwner = "org.example.NetworkActivity.Error.NotOwner"
            for (member, arguments) in [(ServiceMembers.setProgress.name, ["uint32:10"]), (ServiceMembers.setTransfer.name, ["uint64:1", "uint64:0"]),
                                        (ServiceMembers.setCancellable.name, ["boolean:true"]), (ServiceMembers.requestCancel.name, [])] {
                let byOther = try dbusSend(as: other.name, bus, "\(ServiceNames.interface).\(member)",
                                           arguments: ["uint32:\(lease)"] + arguments)
                #expect(byOther.stderr.contains(notOwner), "\(member) from another user: \(byOther)")
            }
            let byNobody = try dbusSend(as: "nobody", bus, ServiceMembers.setProgress.name.rawValue, arguments: ["uint32:\(lease)", "uint32:10"])
            #expect(byNobody.succeeded, "another connection of the activity's user: \(byNobody)")
            let unheard = try dbusSend(as: "nobody", bus, ServiceMembers.requestCancel.name.rawValue, arguments: ["uint32:\(lease)"])
            #expect(unheard.stderr.contains("org.example.NetworkActivity.Error.NotCancellable"), "\(unheard)")

            // Root's own activity, which its connection will stop when asked: another user may not ask.
            let owner = try RawClient(bus)
            let rootsOwn = try owner.begin("root's")
            try owner.setCancellable(rootsOwn)
            let refused = try dbusSend(as: other.name, bus, ServiceMembers.requestCancel.name.rawValue, arguments: ["uint32:\(rootsOwn)"])
            #expect(refused.stderr.contains(notOwner), "\(refused)")
            #expect(try owner.awaitCancelRequest(timeout: .zero) == nil)
            let status = try #require(try owner.details().first { $0.id == lease })
            let nobody = try userID(of: "nobody")
            #expect(status.percent == 10 && status.user == nobody && !status.isCancellable)
            _ = service
        }

        @Test func rootMayAskAnotherUsersActivityToStopAndItsReceiverHearsIt() throws {
            // A real client nobody here wrote (dbus-python), run as nobody, that stops when asked.
            let script = """
                import dbus, dbus.mainloop.glib
                from gi.repository import GLib
                dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
                bus = dbus.SystemBus()
                service = dbus.Interface(bus.get_object('org.example.NetworkActivity', '/org/example/NetworkActivity'),
                                         'org.example.NetworkActivity')
                loop = GLib.MainLoop()
                def asked(requested):
                    print('asked', int(requested), flush=True)
                    service.End(requested)
                    loop.quit()
                bus.add_signal_receiver(asked, signal_name='CancelRequested', dbus_interface='org.example.NetworkActivity')
                activity = service.Begin("nobody's")
                service.SetCancellable(activity, True)
                print('id', int(activity), flush=True)
                loop.run()
                """
            let receiver = try BackgroundProcess(URL(fileURLWithPath: "/usr/sbin/runuser"),
                                                 ["-u", "nobody", "--", "/usr/bin/python3", "-c", script], bus: bus,
                                                 environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
            let line = try #require(try receiver.nextLine(), "\(receiver.stderr)")
            let id = try #require(UInt32(line.dropFirst("id ".count)), "\(line)")
            let refused = try dbusSend(as: other.name, bus, ServiceMembers.requestCancel.name.rawValue, arguments: ["uint32:\(id)"])
            #expect(refused.stderr.contains("org.example.NetworkActivity.Error.NotOwner"), "\(refused)")
            let root = try RawClient(bus)
            _ = try root.call(ServiceMembers.requestCancel.name) { $0.append(id) }
            try receiver.awaitLine("asked \(id)")
            #expect(receiver.exitStatus() == 0, "\(receiver.stderr)")
            #expect(try root.activeCount == 0, "the receiver ended its activity itself")
            _ = service
        }

        @Test func resetIsRefusedToOthersThanRootByTheBusPolicy() throws {
            let root = try RawClient(bus)
            _ = try root.begin()
            let refused = try dbusSend(as: other.name, bus, ServiceMembers.reset.name)
            #expect(refused.stderr.contains("org.freedesktop.DBus.Error.AccessDenied"), "\(refused)")
            #expect(!refused.stderr.contains("only root"), "the bus refused it, not the service: \(refused)")
            #expect(try root.activeCount == 1)
            var reset = try root.call(ServiceMembers.reset.name)
            #expect(try reset.read(UInt32.self) == 1)
        }
    }

    /// The per-user quota, on a system-like bus: a user who connects again and again, as every `dbus-send` does,
    /// cannot fill the table; everyone else is still served.
    @Suite("One user cannot starve another", .enabled(if: geteuid() == 0, "needs root to run callers as other users"))
    struct UserQuotaTests {
        @Test func theReconnectAttackEndsAtTheUsersQuota() throws {
            let bus = try systemLikeBus(including: [systemPolicy])
            let service = try DaemonProcess(bus: bus, arguments: DaemonProcess.noDelays
                + ["--max-per-caller", "10", "--max-per-user", "25", "--max-total", "50"], systemBus: true)
            let attacker = try ThrowawayUser()
            var leases = 0
            var refusal: ToolResult?
            for _ in 0..<30 {
                let lease = try dbusSend(as: attacker.name, bus, ServiceMembers.beginWithTimeout.name, "string:hog", "uint32:86400")
                guard lease.succeeded else { refusal = lease; break }
                leases += 1
            }
            #expect(leases == 25)
            let refused = try #require(refusal)
            #expect(refused.stderr.contains("org.example.NetworkActivity.Error.LimitExceeded"), "\(refused)")
            #expect(refused.stderr.contains("a Unix user may hold at most 25"), "\(refused)")
            let bound = try dbusSend(as: attacker.name, bus, ServiceMembers.begin.name, "string:hog")
            #expect(bound.stderr.contains("LimitExceeded"), "bound activities count too: \(bound)")

            // Another user, and root, are served, bound and timed.
            let timed = try dbusSend(as: "nobody", bus, ServiceMembers.beginWithTimeout.name, "string:mail", "uint32:600")
            #expect(timed.succeeded, "\(timed)")
            let nobodyBound = try dbusSend(as: "nobody", bus, ServiceMembers.begin.name, "string:mail")
            #expect(nobodyBound.succeeded, "\(nobodyBound)")
            let root = try RawClient(bus)
            _ = try root.begin("backup")
            _ = try root.beginTimed("backup", seconds: 600)
            #expect(try root.activeCount == 28)
            _ = service
        }

        @Test func aUsersLeasesExpireAndFreeItsQuota() throws {
            let bus = try systemLikeBus(including: [systemPolicy])
            let service = try DaemonProcess(bus: bus, arguments: DaemonProcess.noDelays + ["--max-per-user", "3"],
                                            systemBus: true)
            let user = try ThrowawayUser()
            let listener = try SignalListener(bus)
            for _ in 0..<3 {
                #expect(try dbusSend(as: user.name, bus, ServiceMembers.beginWithTimeout.name, "string:sync", "uint32:1").succeeded)
            }
            let fourth = try dbusSend(as: user.name, bus, ServiceMembers.beginWithTimeout.name, "string:sync", "uint32:1")
            #expect(fourth.stderr.contains("LimitExceeded"), "\(fourth)")
            try listener.awaitVisibility(false)
            let again = try dbusSend(as: user.name, bus, ServiceMembers.beginWithTimeout.name, "string:sync", "uint32:600")
            #expect(again.succeeded, "\(again)")
            _ = service
        }

        /// One user's ids say nothing of another's activities: between two of the first user's `Begin`s the
        /// second user's five change nothing that can be read from the ids; and a restart hands out none of the
        /// ids it handed out before.
        @Test func aUsersIdsTellNothingOfAnothersAndARestartReusesNone() throws {
            let bus = try systemLikeBus(including: [systemPolicy])
            var service: DaemonProcess? = try DaemonProcess(bus: bus, systemBus: true)
            let first = try ThrowawayUser()
            let second = try ThrowawayUser()
            func begin(as user: ThrowawayUser) throws -> UInt32 {
                let result = try dbusSend(as: user.name, bus, ServiceMembers.beginWithTimeout.name, "string:sync",
                                          "uint32:600")
                return try #require(replyNumber(result), "\(result)")
            }
            let before = try begin(as: first)
            let others = try (0..<5).map { _ in try begin(as: second) }
            let after = try begin(as: first)
            let all = [before] + others + [after]
            #expect(Set(all).count == 7 && !all.contains(0))
            // Counted ids would be seven in a row, the first user's six apart.
            #expect(!zip(all, all.dropFirst()).allSatisfy { $1 == $0 &+ 1 } && after != before &+ 6, "\(all)")
            service?.send(SIGTERM)
            #expect(service?.exitStatus(within: .seconds(10)) == 0)
            service = try DaemonProcess(bus: bus, systemBus: true)
            let later = try (0..<20).map { _ in try begin(as: first) }
            #expect(Set(later).isDisjoint(with: all), "after the restart: \(later), before: \(all)")
            _ = service
        }
    }

    /// The service's own check, for a system bus whose policy lets everyone call Reset.
    @Suite("Reset's second line", .enabled(if: geteuid() == 0, "needs root to run a caller as another user"))
    struct ResetCheckTests {
        @Test func theServiceRefusesResetToOtherUsersItself() throws {
            let lax = try temporaryDirectory("policy").appendingPathComponent("lax.conf")
            defer { try? FileManager.default.removeItem(at: lax.deletingLastPathComponent()) }
            let policy = try String(contentsOf: systemPolicy, encoding: .utf8)
                .replacingOccurrences(of: "<deny send_destination", with: "<allow send_destination")
            try policy.write(to: lax, atomically: true, encoding: .utf8)
            let bus = try systemLikeBus(including: [lax])
            let service = try DaemonProcess(bus: bus, systemBus: true)
            let root = try RawClient(bus)
            _ = try root.begin()

            let refused = try dbusSend(as: "nobody", bus, ServiceMembers.reset.name)
            #expect(refused.stderr.contains("org.freedesktop.DBus.Error.AccessDenied"), "\(refused)")
            #expect(refused.stderr.contains("only root or the service's own user"), "the service refused it: \(refused)")
            #expect(try root.activeCount == 1)
            var reset = try root.call(ServiceMembers.reset.name)
            #expect(try reset.read(UInt32.self) == 1)
            #expect(service.isRunning)
        }
    }
}
