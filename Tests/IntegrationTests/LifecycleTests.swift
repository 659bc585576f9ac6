import NetworkActivityInterface
import DBusKit
import Foundation
import ServiceHarness
import Testing

extension Integration {
    @Suite("Start, stop and install")
    struct LifecycleTests {
        @Test func flagsTakeTheirValueAfterASpaceOrAnEqualsSign() throws {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus, arguments: ["--show-delay=0", "--hide-delay", "0",
                                                                   "--min-visible=0", "--max-per-caller=1"])
            let client = try RawClient(bus)
            _ = try client.begin()
            #expect(throws: DBusError.self) { try client.begin() }
            #expect(service.isRunning)
        }

        @Test(arguments: [
            (["--show-delay", "-1"], "netactivityd: --show-delay takes 0 to 86400 seconds, not '-1'"),
            (["--max-total=0"], "netactivityd: --max-total takes a whole number from 1, not '0'"),
            (["--log-level", "loud"], "netactivityd: --log-level takes trace, debug, info, notice, warning, error or critical, not 'loud'"),
            (["--hide-delay"], "netactivityd: --hide-delay needs a value: --hide-delay SECONDS"),
            (["--replace=yes"], "netactivityd: --replace takes no value"),
            (["--system", "--address", "unix:path=/nonexistent"], "netactivityd: --system and --address exclude each other"),
            (["start"], "netactivityd: unknown option 'start'"),
        ])
        func aBadCommandLineExits64WithOneErrorAndTheUsageLine(arguments: [String], error: String) throws {
            let bus = try PrivateBus()
            let result = try runTool(Paths.daemon.path, arguments, bus: bus)
            #expect(result.status == 64)
            #expect(result.stderr == error + "\nUsage: netactivityd [options]; see netactivityd --help\n")
            #expect(result.stdout.isEmpty)
        }

        @Test func helpListsEveryFlagOfItsPage() throws {
            let bus = try PrivateBus()
            let result = try runTool(Paths.daemon.path, ["--help"], bus: bus)
            #expect(result.status == 0)
            let page = try String(contentsOf: Paths.repository.appendingPathComponent("docs/netactivityd.md"),
                                  encoding: .utf8)
            let section = try #require(page.components(separatedBy: "## Flags").last?
                .components(separatedBy: "\n## ").first)
            let flags = section.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("| `--") else { return nil }
                return String(line.dropFirst(3).prefix { $0 != " " && $0 != "`" })
            }
            #expect(flags.count == 24)
            for flag in flags {
                #expect(result.stdout.contains("  \(flag)"), "\(flag) is missing from --help")
            }
        }

        @Test func aSecondInstanceRefusesToStartAndNamesTheOwner() throws {
            let bus = try PrivateBus()
            let first = try DaemonProcess(bus: bus)
            let second = try DaemonProcess(bus: bus, awaitName: false)
            #expect(second.exitStatus() == 1)
            let owner = try RawClient(bus).connection.nameOwner(of: busName)
            #expect(second.log.contains("already owned by \(owner) (pid \(first.process.processIdentifier))"),
                    "\(second.log)")
            #expect(first.isRunning)
        }

        @Test func replaceTakesTheNameOverAndTheFirstInstanceStops() throws {
            let bus = try PrivateBus()
            let first = try DaemonProcess(bus: bus)
            let second = try DaemonProcess(bus: bus, arguments: DaemonProcess.noDelays + ["--replace"])
            #expect(first.exitStatus() == 0)
            let client = try RawClient(bus)
            let owner = try client.connection.processID(of: try BusName(client.connection.nameOwner(of: busName)))
            #expect(owner == UInt32(second.process.processIdentifier))
            #expect(try client.begin() != 0)
        }

        @Test(arguments: [SIGTERM, SIGINT])
        func aSignalWhileVisibleHidesReleasesTheNameAndExitsZero(signal: Int32) throws {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus)
            let listener = try SignalListener(bus)
            let client = try RawClient(bus)
            _ = try client.begin()
            try listener.awaitVisibility(true)
            service.send(signal)
            try listener.awaitVisibility(false)
            #expect(service.exitStatus() == 0)
            #expect(throws: DBusError.self) { try client.connection.nameOwner(of: busName) }
            #expect(listener.visibilityHistory == [true, false])
        }

        @Test func losingTheBusIsAClearErrorAndExitStatusOne() throws {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus)
            bus.kill()
            #expect(service.exitStatus() == 1)
            #expect(service.log.contains("lost the connection to the bus"), "\(service.log)")
        }

        @Test(.enabled(if: geteuid() == 0, "runs a client as the user nobody, which needs root"))
        func theSystemBusPolicyLetsRootOwnEveryoneCallAndOnlyRootReset() throws {
            let bus = try systemLikeBus(including: [systemPolicy])
            let service = try DaemonProcess(bus: bus)
            let log = try String(contentsOf: bus.directory.appendingPathComponent("bus.log"), encoding: .utf8)
            #expect(!log.split(separator: "\n").contains { $0.contains("rror") && !$0.contains("fd limit") }, "\(log)")

            let asNobody = ["-u", "nobody", "--", "/usr/bin/dbus-send", "--system", "--print-reply",
                            "--dest=org.example.NetworkActivity", "/org/example/NetworkActivity"]
            let begun = try runTool("/usr/sbin/runuser", asNobody + ["org.example.NetworkActivity.BeginWithTimeout",
                                                           "string:nobody", "uint32:60"], bus: bus)
            #expect(begun.succeeded, "\(begun)")
            let refused = try runTool("/usr/sbin/runuser", asNobody + ["org.example.NetworkActivity.Reset"], bus: bus)
            #expect(refused.stderr.contains("org.freedesktop.DBus.Error.AccessDenied"), "\(refused)")
            #expect(try RawClient(bus).activeCount == 1)

            let reset = try dbusSend(bus, ServiceMembers.reset.name)
            #expect(replyNumber(reset) == 1, "\(reset)")
            _ = service
        }

        @Test func withoutThePolicyTheNameCannotBeOwned() throws {
            let bus = try systemLikeBus(including: [])
            let service = try DaemonProcess(bus: bus, awaitName: false)
            #expect(service.exitStatus() == 1)
            #expect(service.log.contains("AccessDenied"), "\(service.log)")
        }

        @Test func theFirstCallStartsTheServiceThroughDBusActivation() throws {
            let installation = try Installation()
            let prefix = installation.prefix
            let services = prefix.appendingPathComponent("share/dbus-1/services")
            let activation = try String(contentsOf: services.appendingPathComponent("org.example.NetworkActivity.service"),
                                        encoding: .utf8)
            #expect(activation.contains("Exec=\(prefix.path)/bin/netactivityd"))
            let unit = try String(contentsOf: prefix.appendingPathComponent("lib/systemd/user/netactivityd.service"),
                                  encoding: .utf8)
            #expect(unit.contains("ExecStart=\(prefix.path)/bin/netactivityd") && unit.contains("Type=dbus"))
            let trayUnit = prefix.appendingPathComponent("lib/systemd/user/netactivity-tray.service")
            let trayUnitText = try String(contentsOf: trayUnit, encoding: .utf8)
            #expect(trayUnitText.contains("ExecStart=\(prefix.path)/bin/netactivity-tray"))
            #expect(trayUnitText.contains("WantedBy=graphical-session.target"))
            // systemd's own reading of the unit: outside a user session it lacks graphical-session.target, and
            // must find nothing else to complain of.
            let verify = try runTool("systemd-analyze", ["verify", trayUnit.path], bus: nil)
            let complaints = verify.stderr.split(separator: "\n").filter { !$0.contains("graphical-session.target") }
            #expect(complaints.isEmpty, "\(verify)")
            let tray = prefix.appendingPathComponent("bin/netactivity-tray")
            #expect(FileManager.default.isExecutableFile(atPath: tray.path))
            for page in ["share/man/man8/netactivityd.8", "share/man/man1/netactivity.1", "share/man/man1/netactivity-tray.1",
                         "share/bash-completion/completions/netactivity", "share/zsh/site-functions/_netactivity",
                         "share/fish/vendor_completions.d/netactivity.fish"] {
                #expect(FileManager.default.fileExists(atPath: installation.path(page).path), "\(page) is not installed")
            }

            let bus = try PrivateBus(services: .folder(services))
            let begun = try dbusSend(bus, ServiceMembers.begin.name, "string:activated")
            #expect(begun.succeeded, "\(begun)")
            // The activated service keeps serving; stop it the way systemd would.
            let client = try RawClient(bus)
            #expect(try client.activeCount == 0, "dbus-send left, so its activity ended")
            let status = try runTool(prefix.appendingPathComponent("bin/netactivity").path, ["status"], bus: bus)
            // Installed with --traffic, on a bus whose service has no system bus to find the system service on.
            #expect(status.stdout == "visible: no\nactive: 0\ntraffic: off (the system service is not running)\n",
                    "the installed netactivity: \(status)")
            let pid = try client.connection.processID(of: try BusName(client.connection.nameOwner(of: busName)))
            kill(pid_t(pid), SIGTERM)
        }
    }
}
