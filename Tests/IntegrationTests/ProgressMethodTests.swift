import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness
import Testing

extension Integration {
    /// `SetProgress`, `SetTransfer`, `SetCancellable`, `RequestCancel` and `GetActivities` from the real clients
    /// nobody here wrote, and the two signals as a real bus delivers them.
    @Suite("Progress and cancellation on a real bus")
    struct ProgressMethodTests {
        let bus: PrivateBus
        let service: DaemonProcess

        init() throws {
            bus = try PrivateBus()
            service = try DaemonProcess(bus: bus)
        }

        /// One tool's way of writing each call: the method and its arguments (id, then the rest).
        struct Tool: Sendable {
            let name: String
            let call: @Sendable (PrivateBus, _ member: String, _ arguments: [(type: String, value: String)]) throws -> ToolResult
        }

        static let tools = [
            Tool(name: "dbus-send") { bus, member, arguments in
                let typeNames = ["u": "uint32", "t": "uint64", "b": "boolean"]
                return try dbusSend(bus, member, arguments: arguments.map { "\(typeNames[$0.type]!):\($0.value)" })
            },
            Tool(name: "gdbus") { bus, member, arguments in
                // gdbus reads the argument types from the service's introspection data.
                try runTool("gdbus", ["call", "--session", "--dest", "org.example.NetworkActivity",
                                      "--object-path", "/org/example/NetworkActivity",
                                      "--method", "org.example.NetworkActivity.\(member)"] + arguments.map(\.value),
                            bus: bus)
            },
            Tool(name: "busctl") { bus, member, arguments in
                try runTool("busctl", ["--address=\(bus.address)", "call", "org.example.NetworkActivity",
                                       "/org/example/NetworkActivity", "org.example.NetworkActivity", member]
                            + (arguments.isEmpty ? [] : [arguments.map(\.type).joined()] + arguments.map(\.value)),
                            bus: bus)
            },
        ]

        static func refused(_ result: ToolResult, _ errorName: String, _ message: String) -> Bool {
            !result.succeeded && (result.stderr.contains(errorName) || result.stderr.contains(message))
        }

        @Test(arguments: tools.map(\.name))
        func eachToolSetsProgressAndAsksTheOwnerToStop(_ toolName: String) throws {
            let tool = try #require(Self.tools.first { $0.name == toolName })
            let owner = try RawClient(bus)
            let id = try owner.begin("download")
            try owner.setCancellable(id)
            func call(_ member: String, _ arguments: (String, String)...) throws -> ToolResult {
                try tool.call(bus, member, [("u", "\(id)")] + arguments.map { (type: $0.0, value: $0.1) })
            }

            let progress = try call(ServiceMembers.setProgress.name.rawValue, ("u", "40"))
            #expect(progress.succeeded, "\(progress)")
            #expect(try owner.details().first?.percent == 40)
            let transfer = try call(ServiceMembers.setTransfer.name.rawValue, ("t", "250"), ("t", "1000"))
            #expect(transfer.succeeded, "\(transfer)")
            // busctl prints an error's message without its name.
            let tooMuch = try call(ServiceMembers.setTransfer.name.rawValue, ("t", "2000"), ("t", "1000"))
            #expect(Self.refused(tooMuch, "InvalidArgs", "more than the total of 1000"), "\(tooMuch)")
            let badPercent = try call(ServiceMembers.setProgress.name.rawValue, ("u", "101"))
            #expect(Self.refused(badPercent, "InvalidArgs", "give 0 to 100"), "\(badPercent)")
            let notItsOwn = try call(ServiceMembers.setCancellable.name.rawValue, ("b", "false"))
            #expect(Self.refused(notItsOwn, "Error.NotOwner", "belongs to another caller"),
                    "only the owner's connection says so of an activity from Begin: \(notItsOwn)")

            let request = try call(ServiceMembers.requestCancel.name.rawValue)
            #expect(request.succeeded, "\(request)")
            #expect(try owner.awaitCancelRequest() == id)

            let listed = try tool.call(bus, ServiceMembers.getActivities.name.rawValue, [])
            #expect(listed.succeeded && listed.stdout.contains("download"), "\(listed)")
            let status = try #require(try owner.details().first)
            #expect(status.percent == 25 && status.done == 250 && status.total == 1000)
            #expect(status.isCancellable && status.isCancelRequested)
            #expect(try owner.activeCount == 1, "a cancel request ends nothing by itself")
        }

        @Test func aCancelRequestReachesTheReceiverAloneNotAListenerWithAMatchRule() throws {
            let listener = try SignalListener(bus)
            try listener.connection.addMatch(MatchRule(member: ServiceMembers.cancelRequested.name))
            let owner = try RawClient(bus)
            let id = try owner.begin("sync")
            try owner.setCancellable(id)
            let asker = try RawClient(bus)
            _ = try asker.call(ServiceMembers.requestCancel.name) { $0.append(id) }
            #expect(try owner.awaitCancelRequest() == id)
            try listener.settle()
            #expect(!listener.history.contains { $0.member == ServiceMembers.cancelRequested.name.rawValue },
                    "a unicast signal goes to its destination only")
            #expect(try asker.awaitCancelRequest(timeout: .zero) == nil)
        }

        @Test func aWidgetFollowsActivitiesChangedAloneAfterOneRead() throws {
            let widget = try SignalListener(bus)
            let reader = try RawClient(bus)
            var shown = Dictionary(uniqueKeysWithValues: try reader.details().map { ($0.id, $0) })
            let owner = try RawClient(bus)
            let first = try owner.begin("first")
            let second = try owner.begin("second")
            _ = try owner.call(ServiceMembers.setProgress.name) { $0.append(first); $0.append(UInt32(70)) }
            try owner.end(second)
            var receiver: RawClient? = try RawClient(bus)
            let lease = try #require(try receiver?.beginTimed("lease", seconds: 600))
            try receiver?.setCancellable(lease)
            receiver = nil  // its connection closes: it leaves the bus

            // Every change is announced within 100 ms; a loaded machine gets a generous deadline. The lease was
            // not cancellable when it began either: the widget has followed once what it shows is what is.
            let expected = [first: 70 as UInt32?, lease: nil]
            let deadline = ContinuousClock.now + .seconds(10)
            func followed() throws -> Bool {
                try shown.mapValues(\.percent) == expected && shown[lease]?.isCancellable == false
                    && Set(shown.values) == Set(try reader.details())
            }
            while try !followed(), ContinuousClock.now < deadline {
                guard let signal = try widget.next(timeout: ContinuousClock.now.duration(to: deadline), {
                    ServiceMembers.activitiesChanged.matches($0)
                }) else { break }
                let report = try ActivityChangeReport(signal)
                for status in report.changed { shown[status.id] = status }
                for id in report.ended { shown[id] = nil }
            }
            #expect(shown.mapValues(\.percent) == expected)
            #expect(shown[lease]?.isCancellable == false, "its receiver left the bus")
            #expect(Set(shown.values) == Set(try reader.details()), "what the widget followed is what is")
        }
    }
}
