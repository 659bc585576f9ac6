import DBusKit
import Foundation
import NetworkActivityClient
import NetworkActivityInterface
import ServiceHarness
import Testing

extension Integration {
    /// A sandboxed app reaches the session bus through `xdg-dbus-proxy`, filtered as Flatpak filters it: it may
    /// talk only to the names its permissions list. With `--talk-name=org.example.NetworkActivity` everything
    /// works through the proxy; without it, our command and library say which permission is missing.
    @Suite("Flatpak: through xdg-dbus-proxy")
    struct FlatpakProxyTests {
        /// `xdg-dbus-proxy` in front of the private bus, listening on a socket of its own.
        final class SandboxProxy {
            let process: Process
            let address: String

            init(_ bus: PrivateBus, talkingTo names: [String]) throws {
                let socket = bus.directory.appendingPathComponent("proxy-\(UUID().uuidString.prefix(8))")
                process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/xdg-dbus-proxy")
                process.arguments = [bus.address, socket.path, "--filter"] + names.map { "--talk=\($0)" }
                process.standardInput = FileHandle.nullDevice
                try process.runHandingOverFiles()
                address = "unix:path=\(socket.path)"
                // It listens once the socket exists.
                let deadline = ContinuousClock.now + .seconds(10)
                while !FileManager.default.fileExists(atPath: socket.path) {
                    guard ContinuousClock.now < deadline, process.isRunning else {
                        throw TestFailure("xdg-dbus-proxy did not listen on \(socket.path)")
                    }
                    Thread.sleep(forTimeInterval: 0.01)
                }
            }

            func kill() {
                Foundation.kill(process.processIdentifier, SIGKILL)
                waitForExit(process)
            }

            deinit { if process.isRunning { kill() } }
        }

        @Test func withTheTalkPermissionBeginProgressStopAndEndWorkThroughTheProxy() throws {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus)
            let listener = try SignalListener(bus)
            let proxy = try SandboxProxy(bus, talkingTo: [ServiceNames.busName.rawValue])
            let sandbox = ["DBUS_SESSION_BUS_ADDRESS": proxy.address, "FLATPAK_ID": "org.example.Sandboxed"]

            // Begin, and stop from outside: the cancel request reaches the app through the proxy.
            let run = try BackgroundProcess(Paths.cli, ["run", "--label", "sandboxed", "--", "sleep", "60"],
                                            bus: bus, environment: sandbox)
            let begun = try ClientExampleTests.awaitRecord(listener) { $0.label == "sandboxed" && $0.isCancellable }
            let progress = try runTool(Paths.cli.path, ["progress", "\(begun.id)", "40"], bus: bus,
                                       environment: sandbox)
            #expect(progress.succeeded, "\(progress)")
            _ = try ClientExampleTests.awaitRecord(listener) { $0.id == begun.id && $0.percent == 40 }
            _ = try RawClient(bus).call(ServiceMembers.requestCancel.name) { $0.append(begun.id) }
            #expect(run.exitStatus() == 128 + SIGTERM)
            try ClientExampleTests.awaitEnd(of: begun.id, listener)

            // An end through the proxy.
            let timed = try runTool(Paths.cli.path, ["begin", "--label", "timed", "--timeout", "600"], bus: bus,
                                    environment: sandbox)
            let id = try #require(UInt32(timed.stdout.trimmingCharacters(in: .newlines)), "\(timed)")
            #expect(try runTool(Paths.cli.path, ["end", "\(id)"], bus: bus, environment: sandbox).succeeded)
            try ClientExampleTests.awaitEnd(of: id, listener)

            // The proxy's connection leaving, as when the app exits, ends its activities.
            let held = try BackgroundProcess(Paths.cli, ["run", "--label", "held", "--", "sleep", "60"], bus: bus,
                                             environment: sandbox)
            let holding = try ClientExampleTests.awaitRecord(listener) { $0.label == "held" }
            #expect(holding.application == "xdg-dbus-proxy", "the bus sees the proxy's process")
            proxy.kill()
            try ClientExampleTests.awaitEnd(of: holding.id, listener)
            #expect(try RawClient(bus).list().isEmpty)
            held.send(SIGKILL)
            _ = service
        }

        @Test func withoutItTheCommandAndTheLibrarySayWhichPermissionIsMissing() async throws {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus)
            let proxy = try SandboxProxy(bus, talkingTo: [])
            let expected = "the sandbox does not let the Flatpak app org.example.Sandboxed talk to "
                + "org.example.NetworkActivity: it needs --talk-name=org.example.NetworkActivity (in its manifest's "
                + "finish-args, or: flatpak override --user --talk-name=org.example.NetworkActivity "
                + "org.example.Sandboxed)"

            let begin = try runTool(Paths.cli.path, ["begin", "--timeout", "60"], bus: bus,
                                    environment: ["DBUS_SESSION_BUS_ADDRESS": proxy.address,
                                                  "FLATPAK_ID": "org.example.Sandboxed"])
            #expect(begin.status == 1 && begin.stderr == "netactivity: \(expected)\n", "\(begin)")
            let run = try runTool(Paths.cli.path, ["run", "--", "true"], bus: bus,
                                  environment: ["DBUS_SESSION_BUS_ADDRESS": proxy.address])
            #expect(run.status == 0 && run.stderr.split(separator: "\n").count == 1
                        && run.stderr.contains("the sandbox does not let this program talk to"), "\(run)")

            let client = try NetworkActivityClient(address: proxy.address)
            await #expect {
                _ = try await client.begin("sandboxed")
            } throws: { error in
                guard case .missingPermission(let message) = error as? NetworkActivityError else { return false }
                return message.contains("it needs --talk-name=org.example.NetworkActivity")
            }
            #expect(try RawClient(bus).list().isEmpty, "nothing reached the service")
            _ = service
        }

        /// A Flatpak app with the talk permission, its proxy in the app's scope as Flatpak starts it: it begins,
        /// reads and ends its own activities and reads the indicator; the user's data usage and history, other
        /// apps' pause, resume and stop, the clears and `Reset` answer `Error.Sandboxed`, saying why, and change
        /// nothing.
        @Test func aSandboxedAppReachesItsOwnActivitiesAloneAndIsToldWhyOfTheRest() throws {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus)
            let outside = try RawClient(bus)
            let others = try outside.call(ServiceMembers.beginWithTimeout.serviceCall("the user's backup", 600))
            let proxy = try SandboxProxy(bus, talkingTo: [ServiceNames.busName.rawValue])
            let scope = try ApplicationCgroup(desktopApp: "app-flatpak-org.example.Sandboxed", user: 0)
            try "\(proxy.process.processIdentifier)".write(to: scope.unit.appendingPathComponent("cgroup.procs"),
                                                          atomically: false, encoding: .utf8)
            // gdbus, as an app's own GLib would call.
            func gdbus(_ method: String, _ arguments: String...) throws -> ToolResult {
                let member = method.contains(".") ? method : "\(ServiceNames.interface).\(method)"
                return try runTool("/usr/bin/gdbus", ["call", "--address", proxy.address, "--dest",
                                                      ServiceNames.busName.rawValue, "--object-path",
                                                      ServiceNames.objectPath.rawValue, "--method", member] + arguments,
                                   bus: bus)
            }

            // The app's own, held by a connection of its own through the proxy, as an app holds one.
            let listener = try SignalListener(bus)
            let run = try BackgroundProcess(Paths.cli, ["run", "--label", "sandboxed sync", "--", "sleep", "60"],
                                            bus: bus, environment: ["DBUS_SESSION_BUS_ADDRESS": proxy.address])
            let begun = try ClientExampleTests.awaitRecord(listener) { $0.label == "sandboxed sync" }
            #expect(begun.application == "org.example.Sandboxed", "\(begun)")
            let read = try gdbus(ServiceMembers.getActivities.name.rawValue)
            #expect(read.succeeded && read.stdout.contains("sandboxed sync") && !read.stdout.contains("backup"),
                    "its own activities alone: \(read)")
            let listed = try gdbus(ServiceMembers.listActivities.name.rawValue)
            #expect(listed.succeeded && listed.stdout.contains("sandboxed sync") && !listed.stdout.contains("backup"),
                    "\(listed)")
            let visible = try gdbus("org.freedesktop.DBus.Properties.Get", ServiceNames.interface.rawValue,
                                    ServiceMembers.visible.name)
            #expect(visible.succeeded && visible.stdout.contains("<"), "\(visible)")

            // Each as (interface, member, arguments), to the interface's own object.
            let refused: [(InterfaceName, String, [String])] = [
                (ServiceNames.usageInterface, UsageMembers.getUsage.name.rawValue, ["", "true"]),
                (ServiceNames.usageInterface, UsageMembers.clearUsage.name.rawValue, []),
                (ServiceNames.pauseInterface, PauseMembers.pause.name.rawValue, ["\(others)"]),
                (ServiceNames.pauseInterface, PauseMembers.resume.name.rawValue, ["\(others)"]),
                (ServiceNames.interface, ServiceMembers.requestCancel.name.rawValue, ["\(others)"]),
                (ServiceNames.interface, ServiceMembers.getHistory.name.rawValue, ["0"]),
                (ServiceNames.interface, ServiceMembers.clearHistory.name.rawValue, []),
                (ServiceNames.interface, ServiceMembers.reset.name.rawValue, []),
            ]
            for (interface, member, arguments) in refused {
                let result = try runTool("/usr/bin/gdbus", ["call", "--address", proxy.address, "--dest",
                                                            ServiceNames.busName.rawValue, "--object-path",
                                                            ServiceNames.objectPath(serving: interface).rawValue,
                                                            "--method", "\(interface).\(member)"] + arguments,
                                         bus: bus)
                #expect(!result.succeeded && result.stderr.contains("org.example.NetworkActivity.Error.Sandboxed")
                        && result.stderr.contains("org.example.Sandboxed runs in a sandbox"), "\(member): \(result)")
            }
            // Nothing changed: the user's activity is there, not asked to stop; the app's own ends.
            let left = try outside.details()
            #expect(left.contains { $0.id == others && !$0.isCancelRequested }, "\(left)")
            let timed = try gdbus(ServiceMembers.beginWithTimeout.name.rawValue, "sandboxed lease", "60")
            let id = try #require(UInt32(timed.stdout.split(separator: " ").last?.filter(\.isNumber) ?? ""), "\(timed)")
            let ended = try gdbus(ServiceMembers.end.name.rawValue, "\(id)")
            #expect(ended.succeeded, "\(ended)")
            run.send(SIGTERM)
            try ClientExampleTests.awaitEnd(of: begun.id, listener)
            #expect(try outside.list().map(\.id) == [others])
            _ = service
        }

        /// With the permission but no service, the command says the service is not there, not that a permission
        /// is missing.
        @Test func withThePermissionButNoServiceTheServiceIsSaidToBeMissing() throws {
            let bus = try PrivateBus()
            let proxy = try SandboxProxy(bus, talkingTo: [ServiceNames.busName.rawValue])
            let begin = try runTool(Paths.cli.path, ["begin", "--timeout", "60"], bus: bus,
                                    environment: ["DBUS_SESSION_BUS_ADDRESS": proxy.address])
            #expect(begin.status == 1, "\(begin)")
            #expect(begin.stderr.hasPrefix("netactivity: org.freedesktop.DBus.Error.ServiceUnknown: The name "),
                    "\(begin)")
        }
    }
}
