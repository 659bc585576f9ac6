import DBusKit
import NetworkActivity
import NetworkActivityInterface
@testable import NetworkActivityService
import Testing

/// `SetProgress`, `SetTransfer`, `SetCancellable`, `RequestCancel`, `GetActivities` and their signals, served in
/// memory: `:1.1` and `:1.2` are connections of user 1000 (the service's own), `:1.3` of user 1001.
@Suite("Progress and cancellation")
struct ProgressAndCancelTests {
    typealias Scene = ActivityEndpointTests.Scene

    static func details(_ scene: Scene) throws -> [ActivityDetails] {
        var reply = try scene.reply(ServiceMembers.getActivities.name).arguments()
        return try reply.read([ActivityDetails].self)
    }

    static func setProgress(_ scene: Scene, _ id: UInt32, _ percent: UInt32, from caller: BusName = ":1.1") throws
        -> String?
    {
        try scene.reply(ServiceMembers.setProgress.name, from: caller) { $0.append(id); $0.append(percent) }.errorName
    }

    static func setTransfer(_ scene: Scene, _ id: UInt32, done: UInt64, total: UInt64, from caller: BusName = ":1.1")
        throws -> String?
    {
        try scene.reply(ServiceMembers.setTransfer.name, from: caller) { $0.append(id); $0.append(done); $0.append(total) }.errorName
    }

    static func call(_ scene: Scene, _ member: MemberName, _ id: UInt32, _ flag: Bool? = nil,
                     from caller: BusName = ":1.1") throws -> String? {
        try scene.reply(member, from: caller) { arguments in
            arguments.append(id)
            if let flag { arguments.append(flag) }
        }.errorName
    }

    /// The `ActivitiesChanged` signals among what was sent since the last call or `clear()`.
    static func changeReports(_ scene: Scene) throws -> [ActivityChangeReport] {
        try scene.bus.signals.filter { ServiceMembers.activitiesChanged.matches($0) }.map { signal in
            try ActivityChangeReport(signal)
        }
    }

    @Test func progressComesFromAnyConnectionOfTheActivitysUserOnly() throws {
        let scene = Scene()
        let id = try scene.begin("backup", from: ":1.1")
        #expect(try Self.setProgress(scene, id, 30, from: ":1.1") == nil)
        #expect(try Self.setProgress(scene, id, 45, from: ":1.2") == nil, "another program of the same user")
        #expect(try Self.setProgress(scene, id, 90, from: ":1.3") == ErrorName.notOwner.rawValue)
        #expect(try Self.setProgress(scene, id, 101) == ErrorName.invalidArgs.rawValue)
        #expect(try Self.setProgress(scene, id + 1, 10) == ErrorName.unknownActivity.rawValue)
        let status = try #require(try Self.details(scene).first)
        #expect(status.percent == 45, "refused calls change nothing")
        #expect(status.done == nil && status.total == nil && status.rate == nil)
        #expect(status.user == 1000 && status.processID == 4200 && status.owner == ":1.1" && !status.isSystem)
    }

    @Test func transferDerivesThePercentAndASmoothedRate() throws {
        let scene = Scene()
        let id = try scene.begin("download")
        #expect(try Self.setTransfer(scene, id, done: 2_000, total: 1_000) == ErrorName.invalidArgs.rawValue)
        #expect(try Self.setTransfer(scene, id, done: 0, total: 8_000) == nil)
        #expect(try Self.details(scene)[0].rate == nil, "no rate from one report")
        scene.clock.advance(by: .seconds(1))
        #expect(try Self.setTransfer(scene, id, done: 2_000, total: 8_000) == nil)
        var status = try Self.details(scene)[0]
        #expect(status.percent == 25 && status.done == 2_000 && status.total == 8_000)
        #expect(status.rate == 2_000, "the first rate is the one measured")
        scene.clock.advance(by: .seconds(1))
        #expect(try Self.setTransfer(scene, id, done: 2_000, total: 8_000) == nil)
        status = try Self.details(scene)[0]
        // A second without progress moves the rate a quarter of the way (1 s against a time constant of 3 s) to 0.
        #expect(status.rate == 1_500)
        #expect(try Self.setTransfer(scene, id, done: 9_000, total: 0) == nil, "an unknown total")
        status = try Self.details(scene)[0]
        #expect(status.total == nil && status.done == 9_000 && status.percent == 25)
    }

    @Test func theOwnerIsAskedToStopAndNobodyElse() throws {
        let scene = Scene()
        let id = try scene.begin("sync", from: ":1.1")
        #expect(try Self.call(scene, ServiceMembers.requestCancel.name, id, from: ":1.2") == ErrorName.notCancellable.rawValue)
        #expect(try Self.call(scene, ServiceMembers.setCancellable.name, id, true, from: ":1.2") == ErrorName.notOwner.rawValue,
                "only its own connection says so for an activity from Begin")
        #expect(try Self.call(scene, ServiceMembers.setCancellable.name, id, true, from: ":1.1") == nil)
        #expect(try Self.call(scene, ServiceMembers.requestCancel.name, id, from: ":1.3") == ErrorName.notOwner.rawValue)
        #expect(try Self.details(scene)[0].isCancelRequested == false)

        let sent = scene.bus.call(scene.object, ServiceNames.interface, ServiceMembers.requestCancel.name, from: ":1.2") { $0.append(id) }
        let requests = sent.filter { ServiceMembers.cancelRequested.matches($0) }
        #expect(requests.count == 1)
        #expect(requests.first?.destination == ":1.1", "a unicast signal, to the owner alone")
        var arguments = try #require(requests.first).arguments()
        #expect(try arguments.read(UInt32.self) == id)
        #expect(sent.last?.type == .methodReturn)

        let status = try Self.details(scene)[0]
        #expect(status.isCancellable && status.isCancelRequested)
        #expect(try scene.activeCount == 1, "ending stays the owner's decision")
    }

    @Test func rootMayAskAnyonesActivityToStop() throws {
        let scene = Scene()
        let id = try scene.begin("sync", from: ":1.3")
        #expect(try Self.call(scene, ServiceMembers.setCancellable.name, id, true, from: ":1.3") == nil)
        // :1.1 is of user 1000, the service's own user: as root is on the system bus.
        #expect(try Self.call(scene, ServiceMembers.requestCancel.name, id, from: ":1.1") == nil)
    }

    @Test func aTimedActivitysReceiverIsAnyConnectionOfItsUserWhileItIsThere() throws {
        let scene = Scene()
        var reply = try scene.beginTimed("lease", from: ":1.1").arguments()
        let id = try reply.read(UInt32.self)
        #expect(try Self.call(scene, ServiceMembers.setCancellable.name, id, true, from: ":1.3") == ErrorName.notOwner.rawValue)
        #expect(try Self.call(scene, ServiceMembers.setCancellable.name, id, true, from: ":1.2") == nil)
        #expect(try Self.details(scene)[0].isCancellable)
        #expect(scene.endpoint.callerLeft(":1.2") == 0)
        #expect(try Self.details(scene)[0].isCancellable == false, "its receiver left the bus")
        #expect(try Self.call(scene, ServiceMembers.requestCancel.name, id, from: ":1.1") == ErrorName.notCancellable.rawValue)
        #expect(try Self.call(scene, ServiceMembers.setCancellable.name, id, true, from: ":1.1") == nil)
        #expect(try Self.call(scene, ServiceMembers.setCancellable.name, id, false, from: ":1.1") == nil)
        #expect(try Self.details(scene)[0].isCancellable == false)
    }

    @Test func changesAreAnnouncedTogetherAtMostEveryFiftyMilliseconds() throws {
        let scene = Scene()
        let first = try scene.begin("a")
        scene.bus.clear()
        _ = scene.endpoint.endTurn()
        var reports = try Self.changeReports(scene)
        #expect(reports.map { $0.changed.map(\.id) } == [[first]])
        #expect(reports.first?.changed.first?.label == "a")

        let second = try scene.begin("b")
        #expect(try Self.setProgress(scene, first, 50) == nil)
        let shortLived = try scene.begin("c")
        #expect(try scene.reply(ServiceMembers.end.name) { $0.append(shortLived) }.errorName == nil)
        scene.bus.clear()
        scene.clock.advance(by: .milliseconds(49))
        var turn = scene.endpoint.endTurn()
        #expect(try Self.changeReports(scene).isEmpty, "49 ms after the last one")
        #expect(turn.nextDeadline == turn.now.advanced(byMicroseconds: 1_000))
        scene.clock.advance(by: .milliseconds(1))
        turn = scene.endpoint.endTurn()
        reports = try Self.changeReports(scene)
        #expect(reports.count == 1)
        #expect(reports.first?.changed.map(\.id) == [first, second])
        #expect(reports.first?.changed.first?.percent == 50)
        #expect(reports.first?.ended == [shortLived], "its end is told: GetActivities may have shown it")

        scene.bus.clear()
        scene.clock.advance(by: .seconds(1))
        _ = scene.endpoint.endTurn()
        #expect(try Self.changeReports(scene).isEmpty, "nothing changed")
    }

    @Test func aRefusedCallAnnouncesNothing() throws {
        let scene = Scene()
        let id = try scene.begin("a")
        scene.clock.advance(by: .seconds(1))
        _ = scene.endpoint.endTurn()
        scene.bus.clear()
        #expect(try Self.setProgress(scene, id, 200) == ErrorName.invalidArgs.rawValue)
        #expect(try Self.call(scene, ServiceMembers.requestCancel.name, id) == ErrorName.notCancellable.rawValue)
        scene.clock.advance(by: .seconds(1))
        _ = scene.endpoint.endTurn()
        #expect(try Self.changeReports(scene).isEmpty)
    }
}
