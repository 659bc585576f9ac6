import DBusKit
import Glibc
import TestSupport
import ProgramSupport
import NetworkActivity
import NetworkActivityInterface
@testable import NetworkActivityService
import Testing

/// The service's own handlers, served in memory: what each method answers, which signals a change sends and in
/// which order, and that a refused call changes nothing. The rules every object shares are `ServedObjectTests`'.
@Suite("The service's object, in memory")
struct ActivityEndpointTests {
    /// The service runs as user 1000; `:1.1` and `:1.2` are that user's programs, `:1.3` another user's, and the
    /// bus knows no user for `:1.4`.
    final class Scene {
        let bus = InMemoryBus()
        let clock = TestClock()
        let endpoint: ActivityEndpoint
        static let users: [String: UInt32] = [":1.1": 1000, ":1.2": 1000, ":1.3": 1001]

        /// - Parameter processID: every caller's process, as the bus tells it.
        init(limits: ActivityLimits = ActivityLimits(), users: [String: UInt32] = Scene.users,
             processID: UInt32 = 4200) {
            endpoint = ActivityEndpoint(
                coordinator: ActivityCoordinator(limits: limits, delays: .none, clock: clock),
                logger: Logger(label: "test"), ownUser: 1000, send: bus.send,
                lookUpCredentials: { name in
                    users[name.rawValue].map { ConnectionCredentials(user: $0, processID: processID) }
                })
        }

        var object: ServedObject { endpoint.object }

        func reply(_ member: MemberName, from caller: BusName = ":1.1", interface: InterfaceName = ServiceNames.interface,
                   _ arguments: (inout MessageWriter) -> Void = { _ in }) throws -> Message {
            try bus.reply(object, interface, member, from: caller, arguments)
        }

        func begin(_ label: String = "mail", from caller: BusName = ":1.1") throws -> UInt32 {
            var reply = try reply(ServiceMembers.begin.name, from: caller) { $0.append(label) }.arguments()
            return try reply.read(UInt32.self)
        }

        func beginTimed(_ label: String = "backup", seconds: UInt32 = 60, from caller: BusName = ":1.1") throws -> Message {
            try reply(ServiceMembers.beginWithTimeout.name, from: caller) { $0.append(label); $0.append(seconds) }
        }

        func property<Value: DBusDecodable>(_ name: String, as type: Value.Type) throws -> Value {
            var reply = try reply(StandardInterface.get.name, interface: StandardInterface.properties) {
                $0.append(ServiceNames.interface.rawValue)
                $0.append(name)
            }.arguments()
            return try reply.read(ReceivedVariant.self).decode(Value.self)
        }

        var activeCount: UInt32 { get throws { try property(ServiceMembers.activeCount.name, as: UInt32.self) } }

        /// The `VisibilityChanged` values among the signals sent since the last call or `clear()`.
        var visibilitySignals: [Bool] {
            bus.signals.compactMap { signal in
                guard ServiceMembers.visibilityChanged.matches(signal)
                else { return nil }
                var arguments = signal.arguments()
                return try? arguments.read(Bool.self)
            }
        }

        /// The properties each `PropertiesChanged` since the last call or `clear()` carries.
        var changedProperties: [[String]] {
            bus.signals.compactMap { signal in
                guard signal.isSignal(interface: StandardInterface.properties, member: StandardInterface.propertiesChanged.name)
                else { return nil }
                var arguments = signal.arguments()
                guard (try? arguments.read(String.self)) == ServiceNames.interface.rawValue else { return nil }
                return (try? arguments.read([String: ReceivedVariant].self))?.keys.sorted()
            }
        }
    }

    @Test func beginAnnouncesTheIndicatorBeforeItsReply() throws {
        let scene = Scene()
        let id = try scene.begin()
        #expect(id > 0)
        #expect(scene.visibilitySignals == [true])
        #expect(scene.changedProperties == [[ServiceMembers.activeCount.name, ServiceMembers.visible.name]])
        #expect(scene.bus.sent.last?.type == .methodReturn)

        _ = try scene.begin("sync", from: ":1.2")
        #expect(scene.visibilitySignals == [], "already showing")
        #expect(scene.changedProperties == [], "a count alone is announced once per turn of the loop")
        scene.bus.clear()
        scene.clock.advance(by: .seconds(1))
        _ = scene.endpoint.endTurn()
        #expect(scene.changedProperties == [[ServiceMembers.activeCount.name]])
    }

    @Test func endOfTheLastActivityHidesAndEndingTwiceIsUnknownActivity() throws {
        let scene = Scene()
        let id = try scene.begin()
        #expect(try scene.reply(ServiceMembers.end.name) { $0.append(id) }.errorName == nil)
        #expect(scene.visibilitySignals == [false])
        #expect(try scene.reply(ServiceMembers.end.name) { $0.append(id) }.errorName == ErrorName.unknownActivity.rawValue)
        #expect(scene.bus.signals.isEmpty, "a refused call announces nothing")
        #expect(try scene.activeCount == 0)
    }

    @Test func anotherCallersActivityIsNotOwnerAndStays() throws {
        let scene = Scene()
        let id = try scene.begin(from: ":1.1")
        #expect(try scene.reply(ServiceMembers.end.name, from: ":1.2") { $0.append(id) }.errorName == ErrorName.notOwner.rawValue)
        #expect(scene.bus.signals.isEmpty)
        #expect(try scene.activeCount == 1)
    }

    @Test func aTimedActivityEndsFromAnyProgramOfItsUserOnly() throws {
        let scene = Scene()
        var reply = try scene.beginTimed(from: ":1.1").arguments()
        let id = try reply.read(UInt32.self)
        #expect(try scene.reply(ServiceMembers.end.name, from: ":1.3") { $0.append(id) }.errorName == ErrorName.notOwner.rawValue)
        #expect(try scene.reply(ServiceMembers.end.name, from: ":1.2") { $0.append(id) }.errorName == nil)
        #expect(try scene.activeCount == 0)
    }

    @Test func aTimedBeginFromACallerWithoutAKnownUserFailsAndChangesNothing() throws {
        let scene = Scene()
        #expect(try scene.beginTimed(from: ":1.4").errorName == ErrorName.failed.rawValue)
        #expect(scene.bus.signals.isEmpty)
        #expect(try scene.activeCount == 0)
    }

    @Test func refusedArgumentsAreInvalidArgsAndChangeNothing() throws {
        let scene = Scene()
        #expect(try scene.reply(ServiceMembers.begin.name) { $0.append("bell\u{7}") }.errorName == ErrorName.invalidArgs.rawValue)
        #expect(try scene.beginTimed(seconds: 0).errorName == ErrorName.invalidArgs.rawValue)
        #expect(try scene.beginTimed(seconds: 86_401).errorName == ErrorName.invalidArgs.rawValue)
        #expect(try scene.activeCount == 0)
    }

    @Test func limitsAreLimitExceeded() throws {
        let scene = Scene(limits: ActivityLimits(perCaller: 1, total: 2))
        _ = try scene.begin(from: ":1.1")
        #expect(try scene.reply(ServiceMembers.begin.name, from: ":1.1") { $0.append("x") }.errorName == ErrorName.limitExceeded.rawValue)
        _ = try scene.begin(from: ":1.2")
        #expect(try scene.reply(ServiceMembers.begin.name, from: ":1.3") { $0.append("x") }.errorName == ErrorName.limitExceeded.rawValue)
        #expect(try scene.activeCount == 2)
    }

    @Test func cancelEndsTheCallersOwnAndCountsThem() throws {
        let scene = Scene()
        _ = try scene.begin(from: ":1.1")
        _ = try scene.begin(from: ":1.1")
        _ = try scene.begin(from: ":1.2")
        var reply = try scene.reply(ServiceMembers.cancel.name, from: ":1.1").arguments()
        #expect(try reply.read(UInt32.self) == 2)
        #expect(try scene.activeCount == 1)
    }

    @Test func resetIsForRootAndTheServicesOwnUser() throws {
        let scene = Scene()
        _ = try scene.begin(from: ":1.1")
        #expect(try scene.reply(ServiceMembers.reset.name, from: ":1.3").errorName == ErrorName.accessDenied.rawValue)
        #expect(try scene.activeCount == 1)
        var reply = try scene.reply(ServiceMembers.reset.name, from: ":1.2").arguments()
        #expect(try reply.read(UInt32.self) == 1)
        #expect(scene.visibilitySignals == [false])
    }

    @Test func listActivitiesGivesEachRecord() throws {
        let scene = Scene()
        let plain = try scene.begin("mail", from: ":1.1")
        var timedReply = try scene.beginTimed("backup", seconds: 30, from: ":1.2").arguments()
        let timed = try timedReply.read(UInt32.self)
        var reply = try scene.reply(ServiceMembers.listActivities.name).arguments()
        let records = try reply.read([ActivityRecord].self)
        #expect(records.map(\.id) == [plain, timed])
        #expect(records.map(\.owner) == [":1.1", ":1.2"])
        #expect(records.map(\.label) == ["mail", "backup"])
        #expect(records[0].deadline == nil)
        #expect(records[1].deadline == records[1].startedAt + 30_000_000)
    }

    @Test func aCallerLeavingEndsItsActivitiesAndHides() throws {
        let scene = Scene()
        _ = try scene.begin(from: ":1.1")
        _ = try scene.begin(from: ":1.1")
        scene.bus.clear()
        #expect(scene.endpoint.callerLeft(":1.1") == 2)
        #expect(scene.visibilitySignals == [false])
        #expect(scene.endpoint.callerLeft(":1.1") == 0)
    }

    @Test func aCallThatWantsNoReplyStillChangesTheState() throws {
        let scene = Scene()
        let sent = scene.bus.call(scene.object, ServiceNames.interface, ServiceMembers.begin.name, expectsReply: false) { $0.append("quiet") }
        #expect(sent.allSatisfy { $0.type == .signal } && !sent.isEmpty)
        #expect(try scene.activeCount == 1)
    }

    @Test func theCountVisibilityAndTrafficAreReadOnlyProperties() throws {
        let scene = Scene()
        _ = try scene.begin()
        #expect(try scene.property(ServiceMembers.visible.name, as: Bool.self))
        var all = try scene.reply(StandardInterface.getAll.name, interface: StandardInterface.properties) {
            $0.append(ServiceNames.interface.rawValue)
        }.arguments()
        #expect(try all.read([String: ReceivedVariant].self).keys.sorted()
                == [ServiceMembers.activeCount.name, ServiceMembers.traffic.name, ServiceMembers.trafficReason.name,
                    ServiceMembers.visible.name])
        #expect(try scene.property(ServiceMembers.traffic.name, as: String.self) == "off")
        #expect(try scene.property(ServiceMembers.trafficReason.name, as: String.self) == "--traffic is not given")
        #expect(try scene.reply(StandardInterface.set.name, interface: StandardInterface.properties) {
            $0.append(ServiceNames.interface.rawValue)
            $0.append(ServiceMembers.activeCount.name)
            $0.append(Variant(UInt32(0)))
        }.errorName == ErrorName.propertyReadOnly.rawValue)
        #expect(try scene.activeCount == 1)
    }

    /// Work in the cgroup where a caller runs its activity joins that activity only when the cgroup is the caller's
    /// own user's (`TrafficVisibility.owner`): a reused process id or another user's app never lends its rate.
    @Test func workInACallersCgroupJoinsItsActivityOnlyWhenTheCgroupIsTheCallersUsers() throws {
        // Every caller runs in this test's own cgroup, whoever's it is.
        let cgroup = try #require(CallerApplication.unifiedCgroup(ofProcess: UInt32(getpid())))
        let owner = TrafficVisibility.owner(ofCgroup: cgroup)
        let scene = Scene(users: [":1.1": owner &+ 1, ":1.2": owner], processID: UInt32(getpid()))
        let strangers = try scene.begin("sync", from: ":1.1")
        var report = SourceReport(label: ActivityLabel(sanitizing: "app"), owner: cgroup, user: owner, rate: 5_000,
                                  cgroup: cgroup)
        let row = try scene.endpoint.report(report, of: .appTraffic(TrafficItem(cgroupID: 7, user: 1000)))
        #expect(row.rawValue != strangers)
        var shown = scene.endpoint.allDetails(readBy: ":1.1")
        #expect(shown.first { $0.id == strangers }?.rate == nil && shown.contains { $0.id == row.rawValue }, "\(shown)")

        let own = try scene.begin("sync", from: ":1.2")
        report.rate = 6_000
        let joined = try scene.endpoint.report(report, of: .appTraffic(TrafficItem(cgroupID: 7, user: 1000)))
        #expect(joined.rawValue == own)
        shown = scene.endpoint.allDetails(readBy: ":1.2")
        #expect(shown.first { $0.id == own }?.rate == 6_000 && !shown.contains { $0.id == row.rawValue }, "\(shown)")
        scene.endpoint.endWork(.appTraffic(TrafficItem(cgroupID: 7, user: 1000)), .ended)
        #expect(scene.endpoint.allDetails(readBy: ":1.2").first { $0.id == own }?.rate == nil)
    }
}
