// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity
import NetworkActivityInterface

/// Where the machine's data plans are kept and held: the system service's (`NetworkPlans`).
protocol DataPlanning: AnyObject {
    /// Every plan, with this period's use.
    func planRecords() -> [PlanRecord]
    /// Sets a network's plan; throws what was refused, and changes nothing then.
    func setPlan(_ settings: PlanSettings, for network: String) throws(DBusError)
    func removePlan(of network: String) throws(DBusError)
}

/// The system service's object at `ServiceNames.plansPath`: the machine's data plans, by network, which root sets
/// and everyone reads. A session serves the same interface through `SystemServiceRelay`.
final class PlansEndpoint {
    private(set) var object: ServedObject!
    let callers: CallerDirectory
    /// Nil where the service counts no traffic, which `notCounting` says why.
    weak var planning: (any DataPlanning)?
    private let notCounting: () -> DBusError

    init(callers: CallerDirectory, send: @escaping (Message) -> Void, notCounting: @escaping () -> DBusError) {
        self.callers = callers
        self.notCounting = notCounting
        object = ServedObject(self, at: ServiceNames.plansPath, interfaces: [Self.interface],
                              introspectionXML: Self.introspectionXML, send: send)
    }

    private func planning(for caller: String) throws(DBusError) -> any DataPlanning {
        try callers.refuseIfSandboxed(caller, .plan)
        guard let planning else { throw notCounting() }
        return planning
    }

    /// A plan is the machine's: only root changes it.
    private func refuseUnlessRoot(_ caller: String) throws(DBusError) {
        guard try callers.knownUser(of: caller) == 0 else {
            throw DBusError(.accessDenied, "only root sets the machine's data plans")
        }
    }

    func setPlan(_ network: String, _ settings: PlanSettings, caller: String) throws(DBusError) {
        let planning = try planning(for: caller)
        try refuseUnlessRoot(caller)
        try planning.setPlan(settings, for: network)
    }

    func removePlan(_ network: String, caller: String) throws(DBusError) {
        let planning = try planning(for: caller)
        try refuseUnlessRoot(caller)
        try planning.removePlan(of: network)
    }

    func plans(for caller: String) throws(DBusError) -> [PlanRecord] {
        try planning(for: caller).planRecords()
    }

    /// A plan changed, or its level: every listener is told, as everyone may read plans.
    func plansChanged() {
        object.emit(object.makeSignal(PlansMembers.plansChanged))
    }
}
