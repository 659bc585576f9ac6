import Foundation
import NetworkActivityInterface
import ServiceHarness
import Testing

extension Integration {
    /// A script written against one of the service's readers works on all: `GetActivities` as `busctl` prints it,
    /// `netactivity status --json`, `watch --format json` and `history --json` give an activity the same keys and
    /// values (the history's `ended` and `outcome` besides).
    @Suite("One record in every reader")
    struct OneRecordTests {
        @Test func statusWatchAndHistoryGiveTheRecordOfTheBus() throws {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus)
            let watch = try BackgroundProcess(Paths.cli, ["watch", "--format", "json"], bus: bus)
            let owner = try RawClient(bus)
            let id = try owner.begin("fetch")
            try owner.setCancellable(id)
            _ = try owner.call(ServiceMembers.setTransfer.serviceCall(id, UInt64(450_000), UInt64(1_000_000)))

            let onTheBus = try Self.busctlRecords(bus, ServiceMembers.getActivities.name.description)
            try #require(onTheBus.count == 1, "\(onTheBus)")
            let record = onTheBus[0]
            #expect(record["percent"] == .number(45) && record["cancellable"] == .flag(true), "\(record)")

            let status = try jsonObject(netactivity(bus, "status", "--json").stdout)
            #expect(try Self.records(status["activities"]) == [record])
            let line = try watch.awaitLine("a line at 45 %") { $0.contains(#""percent":45"#) }
            #expect(try Self.records(try jsonObject(line)["activities"]) == [record])

            try owner.end(id)
            let history = try Self.busctlRecords(bus, ServiceMembers.getHistory.name.description, "u", "0")
            try #require(history.count == 1, "\(history)")
            #expect(Set(history[0].keys) == Set(record.keys).union(["ended", "outcome"]), "\(history[0])")
            #expect(history[0].filter { !["ended", "outcome"].contains($0.key) } == record)
            let printed = try JSONSerialization.jsonObject(with: Data(netactivity(bus, "history", "--json").stdout.utf8))
            #expect(try Self.records(printed) == history)
            _ = service
        }

        /// A record's values, as any of the readers gives them.
        enum Value: Equatable, CustomStringConvertible {
            case number(UInt64), text(String), flag(Bool)

            init(_ json: Any) throws {
                switch json {
                // Foundation reads JSON's true and false as numbers of the C type char.
                case let number as NSNumber where String(cString: number.objCType) == "c": self = .flag(number.boolValue)
                case let number as NSNumber: self = .number(number.uint64Value)
                case let text as String: self = .text(text)
                default: throw Failure("a record's value of JSON type \(type(of: json)): \(json)")
                }
            }

            var description: String {
                switch self {
                case .number(let number): "\(number)"
                case .text(let text): "\"\(text)\""
                case .flag(let flag): "\(flag)"
                }
            }
        }

        struct Failure: Error, CustomStringConvertible {
            let description: String
            init(_ description: String) { self.description = description }
        }

        /// The records of a JSON array of objects.
        static func records(_ json: Any?) throws -> [[String: Value]] {
            guard let objects = json as? [[String: Any]] else { throw Failure("not an array of objects: \(String(describing: json))") }
            return try objects.map { try $0.mapValues(Value.init) }
        }

        /// The records a method of type `a(ua{sv})` returns, as `busctl --json=short` prints them: each record's
        /// id under `id`, and each variant's value.
        static func busctlRecords(_ bus: PrivateBus, _ method: String, _ arguments: String...) throws -> [[String: Value]] {
            let reply = try runTool("busctl", ["--address=\(bus.address)", "--json=short", "call", ServiceNames.busName.description,
                                               ServiceNames.objectPath.description, ServiceNames.interface.description, method]
                                              + arguments, bus: bus)
            guard reply.status == 0, let printed = try JSONSerialization.jsonObject(with: Data(reply.stdout.utf8)) as? [String: Any],
                  let values = printed["data"] as? [Any], let structs = values.first as? [[Any]] else {
                throw Failure("busctl: \(reply)")
            }
            return try structs.map { fields in
                guard fields.count == 2, let id = fields[0] as? NSNumber, let entries = fields[1] as? [String: [String: Any]] else {
                    throw Failure("a record of another shape: \(fields)")
                }
                var record = try entries.mapValues { variant in try Value(variant["data"] as Any) }
                record["id"] = .number(id.uint64Value)
                return record
            }
        }
    }
}
