#if DEBUG  // A fuzz target reads internals (@testable), which a debug build alone compiles for: ReleaseBuild.swift.
import DBusKit
import FuzzingSupport
import NetworkActivityInterface
@testable import NetworkActivity
import ProgramSupport
import TestSupport

/// The activity table and the coordinator around it, driven by a byte stream of requests and events and compared
/// after each with `ReferenceTable`, a plain model written from the rules the README and the interface give
/// (docs/reliability.md, "Fuzzing"). The first four bytes set the limits; then each operation byte, modulo 12:
///
///     0 Begin, 1 BeginWithTimeout, 2 End, 3 Cancel, 4 the caller leaves the bus, 5 the clock moves,
///     6 SetProgress, 7 SetTransfer, 8 SetCancellable, 9 RequestCancel, 10 the service restarts on its state
///     file, 11 Reset
///
/// each followed by what it needs (the caller, an id, a label, a number). After each: the same answer (the id,
/// or the same error), the same activities (ids, owners, labels, deadlines, creators), the same cancel receivers
/// and percents, no user counted for more than the model holds, and the indicator shown exactly while activities
/// are live (the delays are zero here; `VisibilityPolicyTests` cover them).
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzedBytes(data, count: size)
    TableScene(limits: &input).play(&input)
    return 0
}

@main
enum ActivityTableFuzzing {
    static func main() {
        FuzzTarget.main(testOneInput: testOneInput, seeds: TableScene.seeds)
    }
}

final class TableScene {
    /// Callers by slot: two of user 1000 (the service's own), one of 1001, one the bus knows no user of, root,
    /// and another of 1001.
    static let users: [UInt32?] = [1000, 1000, 1001, nil, 0, 1001]
    static let serviceUser: UInt32 = 1000
    let clock = TestClock()
    var coordinator: ActivityCoordinator
    var model: ReferenceTable
    /// Each slot's unique name: a caller that leaves is replaced by a new one, as names are never reused.
    var names = (0..<TableScene.users.count).map { ":1.\($0 + 1)" }
    var nextName = 100

    init(limits input: inout FuzzedBytes) {
        let limits = ActivityLimits(perCaller: Int(input.byte() % 6) + 1, perUser: Int(input.byte() % 8) + 1,
                                    total: Int(input.byte() % 12) + 1,
                                    maximumTimeoutSeconds: input.pick([1, 60, 600]))
        coordinator = ActivityCoordinator(limits: limits, delays: .none, clock: clock)
        model = ReferenceTable(limits: limits)
        for (slot, name) in names.enumerated() { model.connect(name, user: Self.users[slot]) }
    }

    func userOf(_ name: String) -> UInt32? { model.connected[name] ?? nil }

    func play(_ input: inout FuzzedBytes) {
        while !input.isAtEnd {
            let op = input.byte() % 12
            let slot = Int(input.byte()) % names.count
            let caller = names[slot]
            let now = clock.monotonic
            switch op {
            case 0:
                let label = Self.label(&input)
                compare(ServiceMembers.begin.name, result { () throws(ActivityError) in
                    try coordinator.begin(label: label, caller: caller, userOf: userOf).rawValue
                }, model.begin(label: label, caller: caller, seconds: nil, now: now))
            case 1:
                let label = Self.label(&input)
                let seconds = input.pick([0, 1, 2, 5, 30, 60, 599, 600, 601, UInt32.max])
                // The service refuses a timed Begin of a caller whose user the bus cannot tell before it gets here.
                guard let user = Self.users[slot] else { continue }
                compare(ServiceMembers.beginWithTimeout.name, result { () throws(ActivityError) in
                    try coordinator.beginTimed(label: label, seconds: seconds, caller: caller, user: user,
                                               userOf: userOf).rawValue
                }, model.begin(label: label, caller: caller, seconds: seconds, now: now))
            case 2:
                let id = Self.id(&input, model)
                compare(ServiceMembers.end.name, result { () throws(ActivityError) in
                    try coordinator.end(id, caller: caller) { userOf(caller) }
                    return ReferenceTable.Done()
                }, model.end(id, caller: caller))
            case 3:
                compare(ServiceMembers.cancel.name, .success(UInt32(coordinator.cancel(caller: caller))), .success(model.cancel(caller: caller)))
            case 4:
                compare("leaving", .success(UInt32(coordinator.callerLeft(caller))), .success(model.leave(caller)))
                names[slot] = ":1.\(nextName)"
                nextName += 1
                model.connect(names[slot], user: Self.users[slot])
            case 5:
                let step = Int64(input.byte())
                clock.advance(by: .milliseconds(step * step * 10))
                model.expire(at: clock.monotonic)
            case 6:
                let id = Self.id(&input, model)
                let percent = input.pick([0, 1, 50, 99, 100, 101, UInt32.max])
                compare(ServiceMembers.setProgress.name, result { () throws(ActivityError) in
                    try coordinator.setProgress(id, percent: percent, caller: caller, userOf: userOf)
                    return ReferenceTable.Done()
                }, model.setProgress(id, percent: percent, caller: caller))
            case 7:
                let id = Self.id(&input, model)
                let done = UInt64(input.byte()) * 1000
                let total = UInt64(input.byte()) * 1000
                compare(ServiceMembers.setTransfer.name, result { () throws(ActivityError) in
                    try coordinator.setTransfer(id, done: done, total: total, caller: caller, userOf: userOf)
                    return ReferenceTable.Done()
                }, model.setTransfer(id, done: done, total: total, caller: caller))
            case 8:
                let id = Self.id(&input, model)
                let cancellable = input.bool()
                compare(ServiceMembers.setCancellable.name, result { () throws(ActivityError) in
                    try coordinator.setCancellable(id, cancellable, caller: caller, userOf: userOf)
                    return ReferenceTable.Done()
                }, model.setCancellable(id, cancellable, caller: caller))
            case 9:
                let id = Self.id(&input, model)
                compare(ServiceMembers.requestCancel.name, result { () throws(ActivityError) in
                    let receiver = try coordinator.requestCancel(
                        id, caller: caller, serviceUser: Self.serviceUser, userOf: userOf)
                    return UInt32(names.firstIndex(of: receiver).map { $0 + 1 } ?? 0)
                }, model.requestCancel(id, caller: caller, serviceUser: Self.serviceUser).map { receiver in
                    UInt32(names.firstIndex(of: receiver).map { $0 + 1 } ?? 0)
                })
            case 10:
                restart()
            default:
                compare(ServiceMembers.reset.name, .success(UInt32(coordinator.reset())), .success(model.reset()))
            }
            // As at the end of every turn of the service's loop.
            _ = coordinator.endTurn()
            _ = coordinator.takeNotifications()
            checkSameTable(after: op)
        }
    }

    /// The service stops and a new one starts on the file the old one wrote: everything it held, written afresh.
    private func restart() {
        var journal = StateJournal()
        journal.appendFile(of: coordinator.tracker, busID: "fuzz")
        let state = SavedState(reading: journal.bytes, maximumActivities: coordinator.tracker.limits.total)
        fuzzCheck(state.problem == nil, "the state file just written has a problem: \(state.problem ?? "")")
        coordinator = ActivityCoordinator(limits: coordinator.tracker.limits, delays: .none, clock: clock)
        _ = coordinator.restore(state, isOnBus: { [unowned self] name in model.connected[name] != nil })
        model.restart(at: clock.monotonic)
    }

    private func result<Value>(_ body: () throws(ActivityError) -> Value) -> Result<Value, ActivityError> {
        do throws(ActivityError) { return .success(try body()) } catch { return .failure(error) }
    }

    private func compare<Value: Equatable>(_ request: MemberName, _ actual: Result<Value, ActivityError>,
                                           _ expected: Result<Value, ActivityError>) {
        switch (actual, expected) {
        case (.failure(.invalidLabel), .failure(.invalidLabel)):
            return
        default:
            fuzzCheck(actual == expected, "\(request): the table answered \(actual), the model \(expected)")
        }
    }

    private func checkSameTable(after op: UInt8) {
        let tracker = coordinator.tracker
        let actual = tracker.all.map {
            ReferenceTable.Activity(id: $0.id.rawValue, owner: $0.owner, label: $0.label.text,
                                    deadline: $0.expiry?.deadline, creatorUser: $0.expiry?.creatorUser)
        }
        let expected = model.activities.values.map(\.record).sorted { $0.id < $1.id }
        fuzzCheck(actual == expected, "after op \(op) the table holds \(actual), the model \(expected)")
        for activity in model.activities.values {
            let extras = tracker.extras(of: ActivityID(rawValue: activity.record.id))
            fuzzCheck(extras.cancelReceiver == activity.receiver,
                      "activity \(activity.record.id)'s receiver is \(extras.cancelReceiver ?? "nobody"), not \(activity.receiver ?? "nobody")")
            if let percent = activity.percent {
                fuzzCheck(extras.progress.percent == percent, "activity \(activity.record.id)'s percent")
            }
        }
        for user in Set(Self.users.compactMap { $0 }) {
            fuzzCheck(tracker.count(ofUser: user) <= model.counted(user), "user \(user) counted for more than it holds")
        }
        fuzzCheck(coordinator.isVisible == (coordinator.activeCount > 0),
                  "the indicator is \(coordinator.isVisible ? "shown" : "hidden") with \(coordinator.activeCount) live")
    }

    /// A label: the usual, the edges of the rules, or any text.
    static func label(_ input: inout FuzzedBytes) -> String {
        switch input.byte() % 8 {
        case 0: ""
        case 1: "a\u{7}b"
        case 2: String(repeating: "x", count: 256)
        case 3: String(repeating: "é", count: 129)
        case 4: "ünïcode ✓"
        case 5, 6: input.string()
        default: "mail"
        }
    }

    /// An id: mostly one handed out lately, sometimes any.
    static func id(_ input: inout FuzzedBytes, _ model: ReferenceTable) -> ActivityID {
        let byte = input.byte()
        if byte >= 0xF0 { return ActivityID(rawValue: [0, UInt32.max, model.lastID + 1][Int(byte) % 3]) }
        return ActivityID(rawValue: model.lastID &- UInt32(byte % 8))
    }
}
#endif
