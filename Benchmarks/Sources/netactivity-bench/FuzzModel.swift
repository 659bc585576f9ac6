// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivityInterface
import ProgramSupport

/// What the service should hold, and what it should answer to any call: the fuzzer's oracle, written from the
/// interface's documentation (dbus/org.example.NetworkActivity.xml and the README), not from the service's code.
struct FuzzModel {
    struct Activity: Equatable {
        var owner: String
        var label: String
        var isTimed: Bool
        var percent: UInt32?
        var done: UInt64?
        var total: UInt64?
        /// The connection asked to stop it, while it is on the bus.
        var cancelReceiver: String?
        var isCancelRequested = false

        init(owner: String, label: String, isTimed: Bool) {
            self.owner = owner
            self.label = label
            self.isTimed = isTimed
        }
    }

    static let perCallerLimit = 1024
    private(set) var activities: [UInt32: Activity] = [:]
    /// Activities begun by calls that asked for no reply, whose ids are learnt from the next listing.
    private(set) var unresolved: [Activity] = []
    /// Every id the service handed out: a new one is none of them (ids tell nothing, and are never reused).
    private(set) var issued: Set<UInt32> = []

    var count: Int { activities.count + unresolved.count }
    var ids: [UInt32] { Array(activities.keys) }

    /// An id that no live activity has.
    var absentID: UInt32 {
        var id = UInt32(activities.count + 1)
        while activities[id] != nil { id &+= 1 }
        return id
    }

    /// What a call should get: a reply that `check` accepts (and whose effect it applies), or one of `errors`.
    enum Prediction {
        case success(Effect)
        case failure(Set<ErrorName>)
        /// Either is right: calls that libdbus answers for paths the service never registered.
        case successOrFailure(Set<ErrorName>)
    }

    enum Effect {
        case none, begin(Activity), end(UInt32), cancel, reset, list, property(String?), introspection
        case progress(UInt32, UInt32), transfer(UInt32, UInt64, UInt64), cancellable(UInt32, String?)
        case cancelRequested(UInt32), details
    }

    func predict(_ call: FuzzCall, caller: String) -> Prediction {
        let peer = StandardInterface.peer
        if call.interface == peer {
            return [StandardInterface.ping.name, "GetMachineId"].contains(call.member) ? .success(.none) : .failure([.unknownMethod])
        }
        // Each of the service's interfaces at its own object; the data usage's and pausing's are passed on to
        // a system service, and no system service runs here.
        let objects = [ServiceNames.interface, ServiceNames.usageInterface, ServiceNames.pauseInterface]
        guard let own = objects.first(where: { ServiceNames.objectPath(serving: $0) == call.path }) else {
            let errors: Set<ErrorName> = [.unknownMethod, .unknownObject, .unknownInterface]
            return call.member == StandardInterface.introspect.name ? .successOrFailure(errors) : .failure(errors)
        }
        let interfaces = [own, StandardInterface.properties, StandardInterface.introspectable]
        let candidates = FuzzCallMaker.members.filter { member in
            call.interface.map { member.0 == $0 } ?? interfaces.contains(member.0)
        }
        if let interface = call.interface, !interfaces.contains(interface) { return .failure([.unknownInterface]) }
        // Without an interface, the first interface in the object's order that has the member.
        guard let method = interfaces.lazy.compactMap({ interface in
            candidates.first { $0.0 == interface && $0.1 == call.member }
        }).first else { return .failure([.unknownMethod]) }
        if own != ServiceNames.interface {
            return predictPassedOn(method.1, call.arguments, signatureMatches: call.signature == method.signature,
                                   of: own)
        }
        guard call.signature == method.signature else { return .failure([.invalidArgs]) }
        return predict(method.1, call.arguments, caller: caller)
    }

    private func predict(_ member: MemberName, _ arguments: [FuzzValue], caller: String) -> Prediction {
        switch (member, arguments.first, arguments.dropFirst().first) {
        case (ServiceMembers.begin.name, .string(let label), _):
            var errors: Set<ErrorName> = []
            if !Self.isValidLabel(label) { errors.insert(.invalidArgs) }
            if ownCount(caller) >= Self.perCallerLimit { errors.insert(.limitExceeded) }
            return errors.isEmpty ? .success(.begin(Activity(owner: caller, label: label, isTimed: false)))
                : .failure(errors)
        case (ServiceMembers.beginWithTimeout.name, .string(let label), .uint32(let seconds)):
            var errors: Set<ErrorName> = []
            if !Self.isValidLabel(label) || !(1...86_400).contains(seconds) { errors.insert(.invalidArgs) }
            if ownCount(caller) >= Self.perCallerLimit { errors.insert(.limitExceeded) }
            return errors.isEmpty ? .success(.begin(Activity(owner: caller, label: label, isTimed: true)))
                : .failure(errors)
        case (ServiceMembers.end.name, .uint32(let id), _):
            guard let activity = activities[id] else { return .failure([.unknownActivity]) }
            // Every fuzzing connection is the same Unix user, so any of them may end a timed activity.
            return activity.owner == caller || activity.isTimed ? .success(.end(id)) : .failure([.notOwner])
        case (ServiceMembers.setProgress.name, .uint32(let id), .uint32(let percent)):
            if percent > 100 { return .failure([.invalidArgs]) }
            return activities[id] == nil ? .failure([.unknownActivity]) : .success(.progress(id, percent))
        case (ServiceMembers.setTransfer.name, .uint32(let id), .uint64(let done)):
            guard case .uint64(let total) = arguments[2] else { return .failure([.invalidArgs]) }
            if total > 0, done > total { return .failure([.invalidArgs]) }
            return activities[id] == nil ? .failure([.unknownActivity]) : .success(.transfer(id, done, total))
        case (ServiceMembers.setCancellable.name, .uint32(let id), .bool(let cancellable)):
            guard let activity = activities[id] else { return .failure([.unknownActivity]) }
            // Every fuzzing connection is the same Unix user: a timed activity's receiver may be any of them.
            guard activity.isTimed || activity.owner == caller else { return .failure([.notOwner]) }
            return .success(.cancellable(id, cancellable ? caller : nil))
        case (ServiceMembers.requestCancel.name, .uint32(let id), _):
            guard let activity = activities[id] else { return .failure([.unknownActivity]) }
            return activity.cancelReceiver == nil ? .failure([.notCancellable]) : .success(.cancelRequested(id))
        case (ServiceMembers.getActivities.name, _, _): return .success(.details)
        case (ServiceMembers.cancel.name, _, _): return .success(.cancel)
        case (ServiceMembers.reset.name, _, _): return .success(.reset)
        case (ServiceMembers.listActivities.name, _, _): return .success(.list)
        case (StandardInterface.introspect.name, _, _): return .success(.introspection)
        case (StandardInterface.get.name, .string(let interface), .string(let name)), (StandardInterface.set.name, .string(let interface), .string(let name)):
            guard ["", ServiceNames.interface.rawValue].contains(interface) else { return .failure([.unknownInterface]) }
            guard [ServiceMembers.visible.name, ServiceMembers.activeCount.name].contains(name) else { return .failure([.unknownProperty]) }
            return member == StandardInterface.get.name ? .success(.property(name)) : .failure([.propertyReadOnly])
        case (StandardInterface.getAll.name, .string(let interface), _):
            guard ["", ServiceNames.interface.rawValue].contains(interface) else { return .failure([.unknownInterface]) }
            return .success(.property(nil))
        default:
            return .failure([.invalidArgs])
        }
    }

    /// A call of an object that a session passes on to the system service, with none running: the standard
    /// interfaces answer as for an object without properties; every other call with the right arguments says
    /// that nothing counts apps' traffic.
    private func predictPassedOn(_ member: MemberName, _ arguments: [FuzzValue], signatureMatches: Bool,
                                 of own: InterfaceName) -> Prediction {
        guard signatureMatches else { return .failure([.invalidArgs]) }
        switch (member, arguments.first) {
        case (StandardInterface.introspect.name, _): return .success(.introspection)
        case (StandardInterface.get.name, .string(let interface)), (StandardInterface.set.name, .string(let interface)):
            return .failure(["", own.rawValue].contains(interface) ? [.unknownProperty] : [.unknownInterface])
        case (StandardInterface.getAll.name, .string(let interface)):
            return ["", own.rawValue].contains(interface) ? .success(.property(nil)) : .failure([.unknownInterface])
        default: return .failure([.notCountingTraffic])
        }
    }

    /// At most 256 bytes of UTF-8 and no control character (C0, DEL, C1).
    static func isValidLabel(_ label: String) -> Bool {
        label.utf8.count <= 256 && !label.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    private func ownCount(_ caller: String) -> Int {
        activities.values.count { $0.owner == caller } + unresolved.count { $0.owner == caller }
    }

    // MARK: Effects

    /// Checks a successful reply against the prediction and applies its effect; returns what is wrong, if anything.
    mutating func apply(_ effect: Effect, caller: String, reply: Message?) -> String? {
        var reader = reply?.arguments()
        do {
            switch effect {
            case .none:
                return nil
            case .begin(let activity):
                guard var reader else {
                    unresolved.append(activity)
                    return nil
                }
                let id = try reader.read(UInt32.self)
                guard id != 0, issued.insert(id).inserted else { return "Begin returned id \(id), handed out before" }
                activities[id] = activity
            case .end(let id):
                activities[id] = nil
            case .progress(let id, let percent):
                activities[id]?.percent = percent
            case .transfer(let id, let done, let total):
                activities[id]?.done = done
                activities[id]?.total = total == 0 ? nil : total
                if total > 0 {
                    activities[id]?.percent = UInt32(total.dividingFullWidth(done.multipliedFullWidth(by: 100)).quotient)
                }
            case .cancellable(let id, let receiver):
                activities[id]?.cancelReceiver = receiver
            case .cancelRequested(let id):
                activities[id]?.isCancelRequested = true
            case .details:
                guard var reader else { return nil }
                return difference(from: try reader.read([ActivityDetails].self))
            case .cancel:
                let own = activities.values.count { $0.owner == caller } + unresolved.count { $0.owner == caller }
                activities = activities.filter { $0.value.owner != caller }
                unresolved.removeAll { $0.owner == caller }
                if let count = try reader?.read(UInt32.self), Int(count) != own {
                    return "Cancel ended \(count), expected \(own)"
                }
            case .reset:
                let total = count
                activities = [:]
                unresolved = []
                if let count = try reader?.read(UInt32.self), Int(count) != total {
                    return "Reset ended \(count), expected \(total)"
                }
            case .list:
                guard var reader else { return nil }
                return difference(from: try reader.read([ActivityRecord].self))
            case .property(let name):
                guard var reader else { return nil }
                let values: [String: ReceivedVariant] = name == nil ? try reader.read()
                    : [name!: try reader.read(ReceivedVariant.self)]
                if let count = try values[ServiceMembers.activeCount.name]?.decode(UInt32.self), Int(count) != self.count {
                    return "ActiveCount is \(count), expected \(self.count)"
                }
                if let visible = try values[ServiceMembers.visible.name]?.decode(Bool.self), visible != (self.count > 0) {
                    return "Visible is \(visible) with \(self.count) activities"
                }
            case .introspection:
                guard var reader else { return nil }
                let xml = try reader.read(String.self)
                if reply?.path == ServiceNames.objectPath.rawValue, !xml.contains("org.example.NetworkActivity") {
                    return "Introspect returned no interface"
                }
            }
        } catch {
            return "the reply could not be read: \(error)"
        }
        return nil
    }

    /// A connection left the bus: its bound activities end, its timed ones stay.
    mutating func callerLeft(_ caller: String) {
        activities = activities.filter { $0.value.owner != caller || $0.value.isTimed }
        unresolved.removeAll { $0.owner == caller && !$0.isTimed }
        for (id, activity) in activities where activity.cancelReceiver == caller {
            activities[id]?.cancelReceiver = nil
        }
    }

    /// Compares the service's records with the model: every activity, its progress and who may stop it.
    func difference(from details: [ActivityDetails]) -> String? {
        guard unresolved.isEmpty else { return nil }
        guard Set(details.map(\.id)) == Set(activities.keys) else {
            return "GetActivities has \(details.map(\.id).sorted()), the model \(activities.keys.sorted())"
        }
        for record in details {
            let expected = activities[record.id]!
            // The record says whether someone will be asked, not who.
            var listed = Activity(owner: record.owner, label: record.label, isTimed: record.deadline != nil)
            (listed.percent, listed.done, listed.total) = (record.percent, record.done, record.total)
            listed.cancelReceiver = record.isCancellable ? expected.cancelReceiver ?? "someone" : nil
            listed.isCancelRequested = record.isCancelRequested
            if listed != expected { return "GetActivities has \(record), the model holds \(expected)" }
        }
        return nil
    }

    /// Compares the service's list with the model, first taking the ids of activities begun without a reply.
    mutating func difference(from listed: [ActivityRecord]) -> String? {
        var unknown = listed.filter { activities[$0.id] == nil }
        for activity in unresolved {
            guard let index = unknown.firstIndex(where: {
                $0.owner == activity.owner && $0.label == activity.label && ($0.deadline != nil) == activity.isTimed
            }) else { return "an activity begun without a reply, \(activity), is not listed" }
            activities[unknown[index].id] = activity
            issued.insert(unknown[index].id)
            unknown.remove(at: index)
        }
        unresolved = []
        if let extra = unknown.first { return "the service lists \(extra), which the model does not hold" }
        let listedIDs = Set(listed.map(\.id))
        if let missing = activities.first(where: { !listedIDs.contains($0.key) }) {
            return "the model holds \(missing), which the service does not list"
        }
        for record in listed {
            let expected = activities[record.id]!
            if (expected.owner, expected.label, expected.isTimed) != (record.owner, record.label, record.deadline != nil) {
                return "the service lists \(record), the model holds \(expected)"
            }
        }
        return nil
    }
}
