#if DEBUG  // A fuzz target reads internals (@testable), which a debug build alone compiles for: ReleaseBuild.swift.
import NetworkActivity
import ProgramSupport

/// The activity table as the README and the interface describe it, with none of the table's means: no caller
/// lists, no pending users, no pools, no queues. Every rule is a scan of all activities.
struct ReferenceTable {
    struct Activity: Equatable, CustomStringConvertible {
        var id: UInt32
        var owner: String
        var label: String
        var deadline: MonotonicTime?
        var creatorUser: UInt32?

        var description: String { "\(id) of \(owner) \"\(label)\"\(deadline.map { " until \($0)" } ?? "")" }
    }

    struct Live {
        var record: Activity
        /// Unknown (nil) once amounts were given: how they make a percent is the progress's own rule.
        var percent: UInt32?
        var receiver: String?
    }

    /// What a request without an answer of its own returns.
    struct Done: Equatable {}

    let limits: ActivityLimits
    var activities: [UInt32: Live] = [:]
    var lastID: UInt32 = 0
    /// The callers on the bus, and the Unix user behind each (nil when the bus cannot tell).
    var connected: [String: UInt32?] = [:]

    init(limits: ActivityLimits) {
        self.limits = limits
    }

    mutating func connect(_ name: String, user: UInt32?) {
        connected[name] = .some(user)
    }

    private func user(of name: String) -> UInt32? { connected[name] ?? nil }

    /// The activities counted against a user: its callers' bound ones and the timed ones it began.
    func counted(_ user: UInt32) -> Int {
        activities.values.filter { live in
            live.record.creatorUser.map { $0 == user } ?? (self.user(of: live.record.owner) == user)
        }.count
    }

    mutating func begin(label: String, caller: String, seconds: UInt32?, now: MonotonicTime) -> Result<UInt32, ActivityError> {
        guard label.utf8.count <= 256, !label.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        else { return .failure(.invalidLabel("")) }
        if let seconds, !(1...limits.maximumTimeoutSeconds).contains(seconds) {
            return .failure(.invalidTimeout(seconds: seconds, maximum: limits.maximumTimeoutSeconds))
        }
        guard activities.count < limits.total else { return .failure(.totalLimitExceeded(limit: limits.total)) }
        guard activities.values.filter({ $0.record.owner == caller }).count < limits.perCaller else {
            return .failure(.callerLimitExceeded(limit: limits.perCaller))
        }
        if let user = user(of: caller), counted(user) >= limits.perUser {
            return .failure(.userLimitExceeded(limit: limits.perUser))
        }
        lastID += 1
        let deadline = seconds.map { now + .seconds(Int64($0)) }
        activities[lastID] = Live(record: Activity(id: lastID, owner: caller, label: label, deadline: deadline,
                                                   creatorUser: seconds == nil ? nil : user(of: caller)))
        return .success(lastID)
    }

    mutating func end(_ id: ActivityID, caller: String) -> Result<Done, ActivityError> {
        guard let live = activities[id.rawValue] else { return .failure(.unknownActivity(id)) }
        let allowed = live.record.owner == caller
            || (live.record.creatorUser != nil && user(of: caller) == live.record.creatorUser)
        guard allowed else { return .failure(.notOwner(id)) }
        activities[id.rawValue] = nil
        return .success(Done())
    }

    mutating func cancel(caller: String) -> UInt32 {
        let ended = activities.values.filter { $0.record.owner == caller }.map(\.record.id)
        for id in ended { activities[id] = nil }
        return UInt32(ended.count)
    }

    /// The caller's bound activities end, its timed ones stay; it is no one's receiver any more.
    mutating func leave(_ caller: String) -> UInt32 {
        let ended = activities.values.filter { $0.record.owner == caller && $0.record.deadline == nil }.map(\.record.id)
        for id in ended { activities[id] = nil }
        for id in activities.keys where activities[id]?.receiver == caller { activities[id]?.receiver = nil }
        connected[caller] = nil
        return UInt32(ended.count)
    }

    mutating func expire(at now: MonotonicTime) {
        for (id, live) in activities where live.record.deadline.map({ $0 <= now }) == true { activities[id] = nil }
    }

    mutating func reset() -> UInt32 {
        defer { activities = [:] }
        return UInt32(activities.count)
    }

    /// Whether `caller` may report on the activity: its owner, or another caller of its user.
    private func isOfSameUser(_ live: Live, caller: String) -> Bool {
        if live.record.owner == caller { return true }
        guard let activityUser = live.record.creatorUser ?? user(of: live.record.owner),
              let callerUser = user(of: caller) else { return false }
        return activityUser == callerUser
    }

    mutating func setProgress(_ id: ActivityID, percent: UInt32, caller: String) -> Result<Done, ActivityError> {
        guard percent <= 100 else { return .failure(.invalidPercent(percent)) }
        guard let live = activities[id.rawValue] else { return .failure(.unknownActivity(id)) }
        guard isOfSameUser(live, caller: caller) else { return .failure(.notOwner(id)) }
        activities[id.rawValue]?.percent = percent
        return .success(Done())
    }

    mutating func setTransfer(_ id: ActivityID, done: UInt64, total: UInt64, caller: String) -> Result<Done, ActivityError> {
        guard total == 0 || done <= total else { return .failure(.invalidTransfer(done: done, total: total)) }
        guard let live = activities[id.rawValue] else { return .failure(.unknownActivity(id)) }
        guard isOfSameUser(live, caller: caller) else { return .failure(.notOwner(id)) }
        activities[id.rawValue]?.percent = nil
        return .success(Done())
    }

    mutating func setCancellable(_ id: ActivityID, _ cancellable: Bool, caller: String) -> Result<Done, ActivityError> {
        guard let live = activities[id.rawValue] else { return .failure(.unknownActivity(id)) }
        let mayDecide = live.record.deadline == nil ? live.record.owner == caller : isOfSameUser(live, caller: caller)
        guard mayDecide else { return .failure(.notOwner(id)) }
        activities[id.rawValue]?.receiver = cancellable ? caller : nil
        return .success(Done())
    }

    /// Any caller of the activity's user may ask, and root and the service's own user; returns whom to ask.
    func requestCancel(_ id: ActivityID, caller: String, serviceUser: UInt32) -> Result<String, ActivityError> {
        guard let live = activities[id.rawValue] else { return .failure(.unknownActivity(id)) }
        let callerUser = user(of: caller)
        guard isOfSameUser(live, caller: caller) || callerUser == 0 || callerUser == serviceUser else {
            return .failure(.notOwner(id))
        }
        guard let receiver = live.receiver else { return .failure(.notCancellable(id)) }
        return .success(receiver)
    }

    /// A new service takes over: bound activities of callers still on the bus, timed ones until their deadlines,
    /// receivers still on the bus.
    mutating func restart(at now: MonotonicTime) {
        for (id, live) in activities {
            let kept = live.record.deadline.map { $0 > now } ?? (connected[live.record.owner] != nil)
            activities[id] = kept ? live : nil
            if kept, let receiver = live.receiver, connected[receiver] == nil { activities[id]?.receiver = nil }
        }
    }
}
#endif
