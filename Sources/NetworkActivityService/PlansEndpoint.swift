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
    /// Lets the network's apps go on past its cap until the period ends.
    func resumePlan(of network: String) throws(DBusError)
}

/// The system service's object at `ServiceNames.plansPath`: the machine's data plans, by network, which root sets,
/// or a user polkit authorizes (`PolkitInterface.managePlans`), and everyone reads. A session serves the same
/// interface through `SystemServiceRelay`.
final class PlansEndpoint {
    private(set) var object: ServedObject!
    let callers: CallerDirectory
    /// Nil where the service counts no traffic, which `notCounting` says why.
    weak var planning: (any DataPlanning)?
    private let notCounting: () -> DBusError
    /// Nil where no polkit is asked: only root changes plans then.
    private let polkit: PolkitCheck?

    init(callers: CallerDirectory, polkit: PolkitCheck?, send: @escaping (Message) -> Void,
         notCounting: @escaping () -> DBusError) {
        self.callers = callers
        self.polkit = polkit
        self.notCounting = notCounting
        object = ServedObject(self, at: ServiceNames.plansPath, interfaces: [Self.interface],
                              introspectionXML: Self.introspectionXML, send: send)
    }

    private func planning(for caller: String) throws(DBusError) -> any DataPlanning {
        try callers.refuseIfSandboxed(caller, .plan)
        guard let planning else { throw notCounting() }
        return planning
    }

    func setPlan(_ network: String, _ settings: PlanSettings, call: Message) throws(DBusError)
        -> MethodAnswer<NoValue> {
        _ = try planning(for: call.callerName)
        return try whenAuthorized(call) { planning throws(DBusError) in try planning.setPlan(settings, for: network) }
    }

    func removePlan(_ network: String, call: Message) throws(DBusError) -> MethodAnswer<NoValue> {
        _ = try planning(for: call.callerName)
        return try whenAuthorized(call) { planning throws(DBusError) in try planning.removePlan(of: network) }
    }

    func resumePlan(_ network: String, call: Message) throws(DBusError) -> MethodAnswer<NoValue> {
        _ = try planning(for: call.callerName)
        return try whenAuthorized(call) { planning throws(DBusError) in try planning.resumePlan(of: network) }
    }

    /// A plan is the machine's: root changes it at once; another user once polkit authorized them, when the call
    /// is answered; nobody else.
    private func whenAuthorized(_ call: Message, _ change: @escaping (any DataPlanning) throws(DBusError) -> Void)
        throws(DBusError) -> MethodAnswer<NoValue> {
        let refusal = "only root, or a user polkit authorizes, sets the machine's data plans"
        if try callers.knownUser(of: call.callerName) == 0 {
            try change(try planning(for: call.callerName))
            return .now(NoValue())
        }
        guard let polkit else { throw DBusError(.accessDenied, "only root sets the machine's data plans") }
        polkit.check(call.callerName, for: PolkitInterface.managePlans, refusal: refusal) { [weak self] result in
            guard let self else { return }
            do throws(DBusError) {
                try result.get()
                guard let planning else { throw notCounting() }
                try change(planning)
                object.answer(call, with: NoValue())
            } catch {
                object.answer(call, failing: error)
            }
        }
        return .later
    }

    func plans(for caller: String) throws(DBusError) -> [PlanRecord] {
        try planning(for: caller).planRecords()
    }

    /// A plan changed, or its level: every listener is told, as everyone may read plans.
    func plansChanged() {
        object.emit(object.makeSignal(PlansMembers.plansChanged))
    }
}
