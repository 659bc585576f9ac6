import DBusKit
import NetworkActivityInterface
import ServiceHarness
import Testing

extension Integration {
    /// Every refusal has a named D-Bus error and changes nothing.
    @Suite("Bad input and limits")
    struct BadInputTests {
        let bus: PrivateBus
        let service: DaemonProcess
        let client: RawClient
        let held: UInt32

        init() throws {
            bus = try PrivateBus()
            service = try DaemonProcess(bus: bus, arguments: DaemonProcess.noDelays
                + ["--max-per-caller", "3", "--max-total", "4"])
            client = try RawClient(bus)
            held = try client.begin("held")
        }

        /// Nothing changed: the one activity set up by `init` is still the only one.
        private func expectUnchanged() throws {
            #expect(try client.list().map(\.id) == [held])
            #expect(service.isRunning)
        }

        private func expectDbusSendError(_ name: String, _ member: MemberName, _ arguments: String...) throws -> String {
            try expectDbusSendError(name, "\(ServiceNames.interface).\(member)", arguments: arguments)
        }

        /// The same, of `Interface.Member`, which may be wrong on purpose.
        private func expectDbusSendError(_ name: String, _ call: String, arguments: [String] = []) throws -> String {
            let result = try dbusSend(bus, call, arguments: arguments)
            #expect(!result.succeeded)
            #expect(result.stderr.contains("Error \(name):"), "\(result)")
            return result.stderr
        }

        /// The bus delivers a signal addressed to the service whatever its match rules, so any peer can send one
        /// that claims to come from the bus. Sent from the connection that then calls, so that the call's answer
        /// comes after the service has read the signal.
        @Test func signalsInTheBussNameFromAPeerChangeNothing() throws {
            let peer = try RawClient(bus)
            func forge(_ member: MemberName, _ arguments: String...) throws {
                let signal = Message.signal(path: Connection.busDriverPath, interface: Connection.busDriverInterface,
                                            member: member, destination: ServiceNames.busName)
                for argument in arguments { signal.append(argument) }
                _ = peer.send(signal)
                #expect(try peer.list().map(\.id) == [held])
            }
            try forge("NameOwnerChanged", client.name, client.name, "")
            try forge("NameLost", ServiceNames.busName.rawValue)
            try expectUnchanged()
        }

        /// A service that counts no traffic says so for the data usage and pausing; the system service refuses a
        /// `since` that is not a day first, and a session passes its refusal back whole.
        @Test func dataUsageWithoutCountingIsNotCountingTrafficAndABadDayInvalidArgs() throws {
            func usage(_ member: MemberName) -> String { "\(ServiceNames.usageInterface).\(member)" }
            // This session follows no system service: nothing answers what it would pass on.
            let notCounting = try expectDbusSendError("org.example.NetworkActivity.Error.NotCountingTraffic",
                                                      usage(UsageMembers.getUsage.name),
                                                      arguments: ["string:2026-11-28", "boolean:true"])
            #expect(notCounting.contains("--traffic is not given"), "\(notCounting)")
            _ = try expectDbusSendError("org.example.NetworkActivity.Error.NotCountingTraffic",
                                        usage(UsageMembers.clearUsage.name))
            _ = try expectDbusSendError("org.example.NetworkActivity.Error.NotCountingTraffic",
                                        "\(ServiceNames.pauseInterface).\(PauseMembers.pause.name)",
                                        arguments: ["uint32:\(held)"])
            try expectUnchanged()

            // A system service that counts nothing, and a session that passes calls on to it.
            let system = try PrivateBus()
            let systemService = try DaemonProcess(bus: system, arguments: DaemonProcess.noDelays, systemBus: true)
            let session = try PrivateBus()
            let sessionService = try DaemonProcess(bus: session, arguments: DaemonProcess.noDelays,
                                                   environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.address])
            try sessionService.awaitLog("following the system service")
            for (bus, name) in [(system, "the system service"), (session, "the session, passing it on")] {
                for day in ["yesterday", "2026-02-30", "2026-1-5", "20261128"] {
                    let refused = try dbusSend(bus, usage(UsageMembers.getUsage.name),
                                               arguments: ["string:\(day)", "boolean:false"])
                    #expect(refused.stderr.contains("Error org.freedesktop.DBus.Error.InvalidArgs:")
                            && refused.stderr.contains("YYYY-MM-DD"), "\(name): \(refused)")
                }
                let notCounted = try dbusSend(bus, usage(UsageMembers.getUsage.name),
                                              arguments: ["string:", "boolean:false"])
                #expect(notCounted.stderr.contains("Error org.example.NetworkActivity.Error.NotCountingTraffic:"),
                        "\(name): \(notCounted)")
            }
            #expect(systemService.isRunning && sessionService.isRunning)
        }

        @Test func endingAnUnknownIdIsUnknownActivityAndLogged() throws {
            _ = try expectDbusSendError("org.example.NetworkActivity.Error.UnknownActivity", ServiceMembers.end.name, "uint32:4242")
            _ = try expectDbusSendError("org.example.NetworkActivity.Error.UnknownActivity", ServiceMembers.end.name, "uint32:0")
            _ = try expectDbusSendError("org.example.NetworkActivity.Error.UnknownActivity", ServiceMembers.end.name,
                                        "uint32:4294967295")
            try expectUnchanged()
            try client.end(held)
            _ = try client.expectError("org.example.NetworkActivity.Error.UnknownActivity") { try $0.end(held) }
            #expect(try client.activeCount == 0)
            #expect(service.log.contains("ended activity 4242, which is not active"))
        }

        @Test func endingAnotherCallersActivityIsNotOwner() throws {
            let other = try RawClient(bus)
            _ = try other.expectError("org.example.NetworkActivity.Error.NotOwner") { try $0.end(held) }
            _ = try expectDbusSendError("org.example.NetworkActivity.Error.NotOwner", ServiceMembers.end.name, "uint32:\(held)")
            try expectUnchanged()
        }

        @Test func wrongArgumentsAreInvalidArgsNamingTheSignature() throws {
            let wrongType = try expectDbusSendError("org.freedesktop.DBus.Error.InvalidArgs", ServiceMembers.begin.name, "uint32:5")
            #expect(wrongType.contains("\"s\""))
            let tooMany = try expectDbusSendError("org.freedesktop.DBus.Error.InvalidArgs", ServiceMembers.begin.name, "string:a",
                                                  "string:b")
            #expect(tooMany.contains("\"s\"") && tooMany.contains("\"ss\""))
            let missing = try expectDbusSendError("org.freedesktop.DBus.Error.InvalidArgs", ServiceMembers.beginWithTimeout.name,
                                                  "string:a")
            #expect(missing.contains("\"su\""))
            _ = try expectDbusSendError("org.freedesktop.DBus.Error.InvalidArgs", ServiceMembers.end.name)
            _ = try expectDbusSendError("org.freedesktop.DBus.Error.InvalidArgs", ServiceMembers.end.name, "int32:1")
            _ = try expectDbusSendError("org.freedesktop.DBus.Error.InvalidArgs", ServiceMembers.cancel.name, "uint32:1")
            let history = try expectDbusSendError("org.freedesktop.DBus.Error.InvalidArgs", ServiceMembers.getHistory.name, "string:all")
            #expect(history.contains("\"u\""))
            _ = try expectDbusSendError("org.freedesktop.DBus.Error.InvalidArgs", ServiceMembers.clearHistory.name, "boolean:true")
            try expectUnchanged()
        }

        @Test func unknownMethodsAndInterfacesHaveTheStandardErrors() throws {
            _ = try expectDbusSendError("org.freedesktop.DBus.Error.UnknownMethod", "Start")
            _ = try expectDbusSendError("org.freedesktop.DBus.Error.UnknownInterface", "org.example.Other.Begin",
                                        arguments: ["string:x"])
            let gdbus = try gdbusCall(bus, "org.example.NetworkActivity.Finish")
            #expect(!gdbus.succeeded && gdbus.stderr.contains("org.freedesktop.DBus.Error.UnknownMethod"))
            // Another path of the service has no object.
            let elsewhere = try runTool("dbus-send", ["--session", "--print-reply", "--dest=org.example.NetworkActivity",
                                                      "/org/example/Other", "org.example.NetworkActivity.Begin",
                                                      "string:x"], bus: bus)
            #expect(!elsewhere.succeeded && elsewhere.stderr.contains("org.freedesktop.DBus.Error.UnknownMethod"))
            try expectUnchanged()
        }

        @Test func unknownAndReadOnlyPropertiesHaveTheStandardErrors() throws {
            _ = try client.expectError("org.freedesktop.DBus.Error.UnknownProperty") {
                _ = try $0.property("Colour", as: String.self)
            }
            let set = try busctl(bus, "set-property", busName.rawValue, objectPath.rawValue,
                                 interfaceName.rawValue, ServiceMembers.visible.name, "b", "true")
            #expect(!set.succeeded)
            #expect(set.stderr.contains("read-only"), "\(set)")
            let readOnly = try client.expectError("org.freedesktop.DBus.Error.PropertyReadOnly") {
                _ = try $0.call(StandardInterface.set.name, interface: "org.freedesktop.DBus.Properties") { arguments in
                    arguments.append(interfaceName.rawValue)
                    arguments.append(ServiceMembers.activeCount.name)
                    arguments.append(Variant(UInt32(0)))
                }
            }
            #expect(readOnly.contains(ServiceMembers.activeCount.name))
            _ = try client.expectError("org.freedesktop.DBus.Error.UnknownProperty") {
                _ = try $0.call(StandardInterface.set.name, interface: "org.freedesktop.DBus.Properties") { arguments in
                    arguments.append(interfaceName.rawValue)
                    arguments.append("Colour")
                    arguments.append(Variant("red"))
                }
            }
            _ = try client.expectError("org.freedesktop.DBus.Error.UnknownInterface") {
                _ = try $0.call(StandardInterface.getAll.name, interface: "org.freedesktop.DBus.Properties") {
                    $0.append("org.example.Other")
                }
            }
            try expectUnchanged()
        }

        @Test func badLabelsAreInvalidArgs() throws {
            _ = try client.expectError("org.freedesktop.DBus.Error.InvalidArgs") {
                _ = try $0.begin(String(repeating: "x", count: 257))
            }
            _ = try client.expectError("org.freedesktop.DBus.Error.InvalidArgs") { _ = try $0.begin("tab\there") }
            _ = try client.expectError("org.freedesktop.DBus.Error.InvalidArgs") { _ = try $0.begin("bell\u{7}") }
            _ = try expectDbusSendError("org.freedesktop.DBus.Error.InvalidArgs", ServiceMembers.begin.name, "string:line\nbreak")
            try expectUnchanged()
            // The limit is in bytes: 128 two-byte characters fit exactly; an empty label is fine.
            let longest = try client.begin(String(repeating: "é", count: 128))
            let empty = try client.begin("")
            try client.end(longest)
            try client.end(empty)
        }

        @Test(arguments: [UInt32(0), 86_401, .max])
        func timeoutsOutOfRangeAreInvalidArgs(seconds: UInt32) throws {
            let message = try expectDbusSendError("org.freedesktop.DBus.Error.InvalidArgs", ServiceMembers.beginWithTimeout.name,
                                                  "string:x", "uint32:\(seconds)")
            #expect(message.contains("86400"))
            try expectUnchanged()
        }

        @Test func limitsPerCallerAndInTotalAreLimitExceeded() throws {
            _ = try client.begin()
            _ = try client.beginTimed(seconds: 60)
            _ = try client.expectError("org.example.NetworkActivity.Error.LimitExceeded") { _ = try $0.begin() }
            let other = try RawClient(bus)
            _ = try other.begin()
            _ = try expectDbusSendError("org.example.NetworkActivity.Error.LimitExceeded", ServiceMembers.beginWithTimeout.name,
                                        "string:x", "uint32:60")
            #expect(try client.activeCount == 4)
            // Ending one makes room again.
            _ = try other.cancel()
            _ = try other.begin()
        }

        @Test func aCallWithoutInterfaceFindsTheMethod() throws {
            let message = Message.methodCall(destination: busName, path: objectPath, interface: nil, member: ServiceMembers.begin.name)
            message.append("no interface")
            var reply = try client.connection.call(message).arguments()
            let id = try reply.read(UInt32.self)
            #expect(try client.list().map(\.label) == ["held", "no interface"])
            try client.end(id)
        }

        @Test func aCallThatWantsNoReplyStillActs() throws {
            let message = Message.methodCall(destination: busName, path: objectPath, interface: interfaceName,
                                             member: ServiceMembers.begin.name)
            message.append("fire and forget")
            message.expectsReply = false
            client.connection.send(message)
            // Ping is answered after the call before it, on the same connection.
            _ = try client.call(StandardInterface.ping.name, interface: "org.freedesktop.DBus.Peer")
            #expect(try client.activeCount == 2)
        }
    }
}
