#if DEBUG  // A fuzz target reads internals (@testable), which a debug build alone compiles for: ReleaseBuild.swift.
import DBusKit
import FuzzingSupport
import NetworkActivity
import NetworkActivityInterface
@testable import NetworkActivityService
import ProgramSupport
import TestSupport

/// The service's objects (its activities', and the data usage's and pausing's, counting no traffic here)
/// receiving whatever a bus could deliver (docs/reliability.md, "Fuzzing"). An input is a
/// run of events, each an operation byte and what it needs:
///
///     op & 7 in 0...3   a message in its wire form, from the caller (op >> 3) % 6 names; op & 0x80 sends it to
///                       one of the service's paths ((op >> 3) % 3) whatever its own
///     op & 7 == 4       the clock moves by (next byte)² × 4 ms, and the turn ends
///     op & 7 == 5       the caller the next byte names leaves the bus
///     op & 7 == 6       the system service's activities become up to 3 distinct ids, one byte each
///     op & 7 == 7       the turn ends
///
/// The oracle: exactly one reply to each call that asks for one, none otherwise (`CallOracle`); after every
/// event the count equals the activities held, every one of them within the rules (its label, its id, a timed
/// one's deadline ahead once a turn has ended), and after the input `ActiveCount`, `ListActivities` and
/// `GetActivities` agree with them; and the indicator's `VisibilityChanged` alternates, starting with true.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzedBytes(data, count: size)
    ServiceScene().play(&input)
    return 0
}

@main
enum ServiceObjectFuzzing {
    static func main() {
        FuzzTarget.main(testOneInput: testOneInput, seeds: ServiceScene.seeds)
    }
}

final class ServiceScene {
    /// Callers by slot: two of the service's own user, another user, one the bus knows no user of, root; the
    /// sixth keeps the sender the message names when it is a unique name.
    static let users: [UInt32?] = [1000, 1000, 1001, nil, 0]
    let clock = TestClock()
    let sink = MessageSink()
    var endpoint: ActivityEndpoint!
    var usage: UsageEndpoint!
    var pause: PauseEndpoint!
    var objects: [ServedObject] { [endpoint.object, usage.object, pause.object] }
    /// Each slot's unique name: a caller that leaves is replaced by a new one, as names are never reused.
    var names = (0..<ServiceScene.users.count).map { ":1.\($0 + 1)" }
    var nextName = 100
    var lastVisibility: Bool?

    init() {
        let limits = ActivityLimits(perCaller: 4, perUser: 6, total: 8, maximumTimeoutSeconds: 600)
        let delays = VisibilityDelays(show: .milliseconds(500), hide: .milliseconds(200),
                                      minimumVisible: .milliseconds(500))
        endpoint = ActivityEndpoint(
            coordinator: ActivityCoordinator(limits: limits, delays: delays, clock: clock),
            logger: Logger(label: "fuzz"), ownUser: 1000, send: sink.send,
            lookUpCredentials: { [unowned self] name in credentials(of: name.rawValue) },
            lookUpApplication: { _ in "fuzz" })
        let notCounting = { DBusError(.notCountingTraffic, "--traffic is not given") }
        usage = UsageEndpoint(callers: endpoint.callers, ownUser: 1000, logger: Logger(label: "fuzz"),
                              send: sink.send, notCounting: notCounting)
        pause = PauseEndpoint(activities: endpoint, send: sink.send, notCounting: notCounting)
    }

    func credentials(of name: String) -> ConnectionCredentials? {
        guard let slot = names.firstIndex(of: name), let user = Self.users[slot] else { return nil }
        return ConnectionCredentials(user: user, processID: 4200)
    }

    func play(_ input: inout FuzzedBytes) {
        while !input.isAtEnd {
            let op = input.byte()
            switch op & 7 {
            case 0...3:
                guard let length = WireMessage.length(at: input.remaining) else { return }
                guard let message = WireMessage.message(from: input.take(length)) else { continue }
                if op & 0x80 != 0 { WireMessage.setPath(message, objects[Int(op >> 3) % objects.count].path) }
                let sender = self.sender(slot: Int(op >> 3) % 6, message: message)
                record(CallOracle.deliver(message, from: sender, to: objects, sink: sink))
            case 4:
                let step = Int64(input.byte())
                clock.advance(by: .milliseconds(step * step * 4))
                endTurn()
            case 5:
                let slot = Int(input.byte()) % names.count
                sink.clear()
                _ = endpoint.callerLeft(names[slot])
                record(sink.sent)
                names[slot] = ":1.\(nextName)"
                nextName += 1
            case 6:
                // The system service is another netactivityd: its ids are distinct.
                let ids = Set((0..<Int(input.byte() % 4)).map { _ in UInt32(input.byte()) + 1 }).sorted()
                sink.clear()
                endpoint.followSystemActivities(ids.map {
                    ActivityDetails(id: $0, label: "system", owner: ":1.9", startedAt: 0, user: 0)
                })
                record(sink.sent)
            default:
                endTurn()
            }
            checkHeldActivities()
        }
        checkAnswers()
    }

    private func sender(slot: Int, message: Message) -> BusName {
        if slot == 5, let own = message.sender, own.hasPrefix(":"), let name = try? BusName(own) { return name }
        return try! BusName(names[slot % names.count])
    }

    private func endTurn() {
        sink.clear()
        _ = endpoint.endTurn()
        record(sink.sent)
        let now = clock.monotonic
        for activity in endpoint.coordinator.tracker.all {
            if let expiry = activity.expiry {
                fuzzCheck(expiry.deadline > now, "activity \(activity.id) is past its deadline after a turn")
            }
        }
    }

    /// Follows the indicator through the signals sent.
    private func record(_ sent: [Message]) {
        for signal in sent where ServiceMembers.visibilityChanged.matches(signal) {
            var arguments = signal.arguments()
            guard let visible = try? arguments.read(Bool.self) else {
                fuzzCheck(false, "VisibilityChanged without a boolean")
                return
            }
            fuzzCheck(visible != (lastVisibility ?? false), "VisibilityChanged(\(visible)) twice, or false first")
            lastVisibility = visible
        }
    }

    private var held: Int { endpoint.coordinator.tracker.count + endpoint.coordinator.systemActivityIDs.count }

    private func checkHeldActivities() {
        let tracker = endpoint.coordinator.tracker
        fuzzCheck(Int(endpoint.coordinator.activeCount) == held, "ActiveCount \(endpoint.coordinator.activeCount) for \(held) held")
        for activity in tracker.all {
            fuzzCheck(activity.id.rawValue > 0 && tracker.idCipher.count(ofID: activity.id.rawValue) <= tracker.highestID, "activity id \(activity.id)")
            fuzzCheck((try? ActivityLabel(activity.label.text)) != nil, "activity \(activity.id) holds a label the rules refuse")
        }
        fuzzCheck(tracker.count <= tracker.limits.total, "\(tracker.count) activities over the limit")
        for user in Set(Self.users.compactMap { $0 }) {
            fuzzCheck(tracker.count(ofUser: user) <= tracker.count, "user \(user) counted for more activities than there are")
        }
    }

    /// What a caller is told of the activities, after the input: three calls each take longer than most events.
    private func checkAnswers() {
        var count = ask(StandardInterface.get.name) { $0.append(ServiceNames.interface.rawValue); $0.append(ServiceMembers.activeCount.name) }
        fuzzCheck((try? count.read(ReceivedVariant.self).decode(UInt32.self)) == UInt32(held), "the ActiveCount property")
        var listed = ask(ServiceMembers.listActivities.name)
        let records = try? listed.read([ActivityRecord].self)
        fuzzCheck(records?.count == held, "ListActivities lists \(records?.count ?? -1) of \(held) held")
        var details = ask(ServiceMembers.getActivities.name)
        let detailed = try? details.read([ActivityDetails].self)
        fuzzCheck(detailed?.count == held, "GetActivities gives \(detailed?.count ?? -1) of \(held) held")
    }

    /// The reply's arguments to a call from a caller of its own.
    private func ask(_ member: MemberName, _ arguments: (inout MessageWriter) -> Void = { _ in }) -> MessageReader {
        let interface = member == StandardInterface.get.name ? StandardInterface.properties : ServiceNames.interface
        let call = Message.methodCall(destination: nil, path: ServiceNames.objectPath, interface: interface, member: member)
        call.appendArguments(arguments)
        call.serial = 7
        let sent = CallOracle.deliver(call, from: ":1.99", to: [endpoint.object], sink: sink)
        record(sent)
        return sent.last!.arguments()
    }
}
#endif
