import DBusKit
import NetworkActivityInterface
import ServiceHarness
import Testing

extension Integration {
    @Suite("Properties and signals")
    struct PropertyTests {
        let bus: PrivateBus
        let service: DaemonProcess

        init() throws {
            bus = try PrivateBus()
            service = try DaemonProcess(bus: bus)
        }

        @Test func realClientsReadTheProperties() throws {
            let idle = try gdbusCall(bus, "org.freedesktop.DBus.Properties.Get", "org.example.NetworkActivity", ServiceMembers.visible.name)
            #expect(idle.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "(<false>,)", "\(idle)")
            let client = try RawClient(bus)
            _ = try client.begin()
            _ = try client.begin()
            let count = try busctl(bus, "get-property", busName.rawValue, objectPath.rawValue, interfaceName.rawValue,
                                   ServiceMembers.activeCount.name)
            #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "u 2", "\(count)")
            let all = try busctl(bus, "call", busName.rawValue, objectPath.rawValue, "org.freedesktop.DBus.Properties",
                                 StandardInterface.getAll.name.rawValue, "s", interfaceName.rawValue)
            #expect(all.stdout.contains("\"ActiveCount\" u 2") && all.stdout.contains("\"Visible\" b true"), "\(all)")
            let dbusSendAll = try dbusSend(bus, "org.freedesktop.DBus.Properties.GetAll",
                                           "string:org.example.NetworkActivity")
            #expect(dbusSendAll.stdout.contains("boolean true"), "\(dbusSendAll)")
        }

        @Test func visibilityChangedThenOneSignalCarryingEveryChangedProperty() throws {
            let listener = try SignalListener(bus)
            let client = try RawClient(bus)
            let id = try client.begin()
            try listener.awaitVisibility(true)
            try client.end(id)
            try listener.awaitVisibility(false)
            try listener.settle()
            // ActivitiesChanged and HistoryChanged keep their own intervals, and may fall anywhere among these.
            let paced: Set = [ServiceMembers.activitiesChanged.name, ServiceMembers.historyChanged.name]
            let visibility = ServiceMembers.visibilityChanged.name, properties = StandardInterface.propertiesChanged.name
            #expect(listener.history.compactMap { $0.member.flatMap { try? MemberName($0) } }.filter { !paced.contains($0) }
                    == [visibility, properties, visibility, properties])
            let changes = listener.propertyChanges
            #expect(try changes[0][ServiceMembers.visible.name]?.decode(Bool.self) == true)
            #expect(try changes[0][ServiceMembers.activeCount.name]?.decode(UInt32.self) == 1)
            #expect(try changes[1][ServiceMembers.visible.name]?.decode(Bool.self) == false)
            #expect(try changes[1][ServiceMembers.activeCount.name]?.decode(UInt32.self) == 0)
        }

        /// Awaits the `PropertiesChanged` that reports `count`, then returns the count-only emissions seen.
        private func countOnlyEmissions(until count: UInt32, _ listener: SignalListener) throws -> Int {
            let last = try listener.next { message in
                message.member == StandardInterface.propertiesChanged.name.rawValue && listener.propertyChanges.last.flatMap {
                    try? $0[ServiceMembers.activeCount.name]?.decode(UInt32.self)
                } == count
            }
            #expect(last != nil, "saw \(listener.propertyChanges.count) PropertiesChanged without reaching \(count)")
            try listener.settle()
            #expect(listener.propertyChanges.allSatisfy { $0[ServiceMembers.activeCount.name] != nil })
            return listener.propertyChanges.filter { $0[ServiceMembers.visible.name] == nil }.count
        }

        @Test func countChangesInOneTurnAreSentOnce() throws {
            let listener = try SignalListener(bus)
            let client = try RawClient(bus)
            _ = try client.begin()
            // Fifty Begins sent at once, without waiting for replies: they reach the service in a few turns.
            for index in 0..<50 {
                let message = Message.methodCall(destination: busName, path: objectPath, interface: interfaceName,
                                                 member: ServiceMembers.begin.name)
                message.append("burst \(index)")
                client.connection.send(message)
            }
            client.connection.flush()
            #expect(try countOnlyEmissions(until: 51, listener) < 10)
        }

        /// However long the calls take: a slower machine only allows more emissions.
        @Test func countChangesAcrossTurnsAreSentAtMostEvery50Milliseconds() throws {
            let listener = try SignalListener(bus)
            let client = try RawClient(bus)
            let start = ContinuousClock.now
            // Each call waits for its reply, so each lands in a turn of its own.
            for _ in 0..<40 { _ = try client.begin() }
            let elapsed = ContinuousClock.now - start
            let emissions = try countOnlyEmissions(until: 40, listener)
            // One per started 50 ms of calls, plus the trailing one that carries the final value.
            let allowed = Int(elapsed / .milliseconds(50)) + 2
            #expect(emissions <= allowed, "\(emissions) emissions in \(elapsed)")
        }
    }

    @Suite("Introspection and Peer")
    struct IntrospectionTests {
        let bus: PrivateBus
        let service: DaemonProcess

        init() throws {
            bus = try PrivateBus()
            service = try DaemonProcess(bus: bus)
        }

        private func introspect(_ path: ObjectPath) throws -> String {
            let client = try RawClient(bus)
            var reply = try client.connection.call(destination: busName, path: path,
                                                   interface: "org.freedesktop.DBus.Introspectable",
                                                   member: StandardInterface.introspect.name)
            return try reply.read(String.self)
        }

        @Test func theObjectIntrospectsAsTheInterfaceFileByteForByte() throws {
            let file = try String(contentsOf: Paths.dbusFolder.appendingPathComponent("org.example.NetworkActivity.xml"),
                                  encoding: .utf8)
            #expect(try introspect(objectPath) == file)
        }

        @Test(arguments: [("/", "org"), ("/org", "example"), ("/org/example", "NetworkActivity")])
        func parentPathsListTheirChild(path: String, child: String) throws {
            #expect(try introspect(ObjectPath(path)).contains("<node name=\"\(child)\""))
        }

        @Test func busctlAndGdbusFindTheObject() throws {
            let tree = try busctl(bus, "tree", busName.rawValue)
            #expect(tree.stdout.contains("/org/example/NetworkActivity"), "\(tree)")
            let recursive = try runTool("gdbus", ["introspect", "--session", "--dest", busName.rawValue,
                                                  "--object-path", "/", "--recurse"], bus: bus)
            #expect(recursive.stdout.contains("interface org.example.NetworkActivity"), "\(recursive)")
            #expect(recursive.stdout.contains("BeginWithTimeout(in  s label,"), "\(recursive)")
        }

        @Test func peerMethodsAnswer() throws {
            let ping = try dbusSend(bus, "org.freedesktop.DBus.Peer.Ping")
            #expect(ping.succeeded, "\(ping)")
            let machine = try dbusSend(bus, "org.freedesktop.DBus.Peer.GetMachineId")
            #expect(machine.succeeded && machine.stdout.contains("string \""), "\(machine)")
        }
    }
}
