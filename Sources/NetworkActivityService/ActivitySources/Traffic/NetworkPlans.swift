// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity
import NetworkActivityInterface
import ProgramSupport
import TrafficCounters

/// Keeps the machine's networks to their data plans (`DataPlans`): what a period used is the data usage's
/// (`DataUsageKeeper`, every user's apps on the network), and what is left of the cap is the allowance the kernel
/// takes each packet from, on every interface of the service's namespace that the network names now
/// (`TrafficCounters.setPlanAllowance`). The allowance is set again from the totals at every take (at least once a
/// minute while anything moves, and at midnight, when a period may begin), when a plan changes and when
/// NetworkManager moves a connection to another device, and at each local midnight while any plan is kept (a plan
/// used up stops the packets that would have woken the service). So the cap is kept by the kernel to the packet,
/// not at the minute's take. The plans are written to `plans` in the service's directory at each change.
final class NetworkPlans: TrafficPeer, DataPlanning {
    static let fileName = "plans"

    private(set) var plans: DataPlans
    private unowned let kernel: TrafficKernel
    private unowned let usage: DataUsageKeeper
    private let directory: String?
    /// The namespace's cookie in the plans map's keys, as the programs find it.
    private let namespace: UInt64
    /// The interfaces each network's plan holds in the kernel now.
    private var held: [String: [UInt32]] = [:]
    /// The networks whose plan is past its warning, or used up, this period: each is logged once.
    private var warned: Set<String> = []
    private var usedUp: Set<String> = []
    private var today: UsageDay?
    /// The next local midnight, while any plan is kept.
    private var nextMidnight: MonotonicTime?
    /// Whether the kernel woke the service for a plan's level this turn.
    private var levelReached = false
    /// Told when a plan was set or removed, or crossed its warning level, was used up or began a new period
    /// (`PlansMembers.plansChanged`).
    var onChange: (() -> Void)?

    init(kernel: TrafficKernel, usage: DataUsageKeeper, directory: String?) {
        self.kernel = kernel
        self.usage = usage
        self.directory = directory
        namespace = kernel.counters.tellsNamespaces ? TrafficCounters.ownNamespace() ?? 0 : 0
        plans = directory.flatMap { Self.file.read(from: $0, logger: kernel.logger) } ?? DataPlans()
        usage.onTaken = { [unowned self] today in
            self.today = today
            keepToPlans()
        }
        kernel.networks.onChange { [unowned self] in keepToPlans() }
        // Held from the start: a restart lets nothing through that the plan had stopped.
        if !plans.isEmpty { usage.takeNow(saving: false) }
    }

    /// A packet took a plan past its warning or used it up (`WakeUpKind.planLevel`): the counts are taken at the
    /// turn's end, which tells of the level at once.
    func kernelWoke(for key: CounterKey, _ kind: WakeUpKind, at now: MonotonicTime) {
        if kind == .planLevel { levelReached = true }
    }

    func endOfTurn(at now: MonotonicTime) -> Duration? {
        guard !plans.isEmpty else {
            nextMidnight = nil
            levelReached = false
            return nil
        }
        if let due = nextMidnight, now >= due {
            usage.takeNow(saving: false)
            nextMidnight = nil
        }
        if levelReached {
            levelReached = false
            usage.takeNow(saving: false)
        }
        let midnight = nextMidnight ?? now + LocalCalendar.untilMidnight(atWallClock: kernel.clock.now().wallClock)
        nextMidnight = midnight
        return now.duration(to: midnight)
    }

    // MARK: What the endpoint asks

    func planRecords() -> [PlanRecord] {
        usage.takeNow(saving: false)
        guard let today else { return [] }
        return plans.all.map { network, plan in
            let period = plan.period(containing: today)
            let used = usage.usage.bytes(on: network, from: period.first)
            let level: PlanRecord.Level = plan.isUsedUp(used) ? .usedUp : used >= plan.warnsAt ? .warning : .normal
            return PlanRecord(network: network,
                              settings: PlanSettings(cap: plan.cap, period: plan.period.rawValue,
                                                     starts: UInt32(plan.starts), warn: UInt32(plan.warnPercent)),
                              used: used, since: period.first.description, resets: period.resets.description,
                              level: level, isResumed: plans.isResumed(network, on: today))
        }
    }

    func setPlan(_ settings: PlanSettings, for network: String) throws(DBusError) {
        var changed = plans
        do throws(DataPlanError) {
            guard let period = DataPlan.Period(rawValue: settings.period) else {
                throw DataPlanError.invalidPeriod(settings.period)
            }
            let plan = try DataPlan(cap: settings.cap, period: period, starts: settings.starts.map { Int($0) },
                                    warnPercent: settings.warn.map { Int($0) })
            try changed.set(plan, for: network)
        } catch {
            throw error.dbusError
        }
        try keep(changed, changing: network)
        kernel.logger.info("the data plan of \(network): \(settings.cap) bytes a \(settings.period)")
    }

    func removePlan(of network: String) throws(DBusError) {
        do throws(DataPlanError) {
            try DataPlans.check(network)
        } catch {
            throw error.dbusError
        }
        var changed = plans
        guard changed.remove(network) else { return }
        try keep(changed, changing: network)
        kernel.logger.info("the data plan of \(network): none")
    }

    func resumePlan(of network: String) throws(DBusError) {
        usage.takeNow(saving: false)
        var changed = plans
        do throws(DataPlanError) {
            guard let today else { throw DataPlanError.noPlan(network) }
            try changed.resume(network, on: today)
        } catch {
            throw error.dbusError
        }
        try keep(changed, changing: network, levelsAgain: false)
        kernel.logger.info("the data plan of \(network) is resumed until it resets")
    }

    /// Keeps the changed plans, written first (a change that cannot be kept is refused, and changes nothing),
    /// then holds the networks to them now; a new plan's levels are logged and told again.
    private func keep(_ changed: DataPlans, changing network: String, levelsAgain: Bool = true) throws(DBusError) {
        if let directory, !Self.file.write(changed, to: directory, logger: kernel.logger) {
            throw DBusError(.failed, "the plans cannot be kept in \(directory); see the service's journal")
        }
        plans = changed
        if levelsAgain {
            warned.remove(network)
            usedUp.remove(network)
        }
        usage.takeNow(saving: false)
        onChange?()
    }

    // MARK: The kernel

    /// Sets each plan's allowance, from the totals just taken, on the interfaces its network names now; lets go
    /// of those it names no more.
    private func keepToPlans() {
        guard let today else { return }
        forgetEndedResumptions(on: today)
        var nowHeld: [String: [UInt32]] = [:]
        for (network, plan) in plans.all {
            let period = plan.period(containing: today)
            let used = usage.usage.bytes(on: network, from: period.first)
            // Resumed: nothing is held until the period ends, and its levels are not told again.
            guard !plans.isResumed(network, on: today) else { continue }
            let allowance = plan.cap > used ? plan.cap - used : 0
            let interfaces = kernel.networks.interfaces(of: network).filter { $0 != TrafficCounters.loopbackIndex }
            let next = plan.nextLevel(afterUsing: used)
            for index in interfaces where !kernel.counters.setPlanAllowance(allowance, wakingBelow: next,
                                                                           interfaceIndex: index, namespace: namespace) {
                kernel.logger.warning("cannot keep \(network) to its plan: at most \(TrafficCounters.plannedCapacity) interfaces may be under a plan at once")
            }
            nowHeld[network] = interfaces
            noteLevel(of: network, plan, used: used)
        }
        for (network, interfaces) in held {
            for index in Set(interfaces).subtracting(nowHeld[network] ?? []) {
                _ = kernel.counters.setPlanAllowance(nil, interfaceIndex: index, namespace: namespace)
            }
        }
        held = nowHeld
    }

    /// A resumed plan whose period ended holds again; the file says so (its next write would anyway).
    private func forgetEndedResumptions(on today: UsageDay) {
        var changed = plans
        guard changed.forgetEndedResumptions(on: today) else { return }
        plans = changed
        if let directory { _ = Self.file.write(changed, to: directory, logger: kernel.logger) }
        onChange?()
    }

    /// Logs, once a period, a plan past its warning and used up; tells `onChange` of every change of level (a
    /// new period's included).
    private func noteLevel(of network: String, _ plan: DataPlan, used: UInt64) {
        var changed = false
        if used < plan.warnsAt, warned.remove(network) != nil { changed = true }
        if !plan.isUsedUp(used), usedUp.remove(network) != nil { changed = true }
        if used >= plan.warnsAt, warned.insert(network).inserted {
            changed = true
            if !plan.isUsedUp(used) {
                kernel.logger.info("the data plan of \(network) is \(plan.warnPercent) % used: \(used) of \(plan.cap) bytes")
            }
        }
        if plan.isUsedUp(used), usedUp.insert(network).inserted {
            changed = true
            kernel.logger.info("the data plan of \(network) is used up: \(used) of \(plan.cap) bytes; its packets are dropped until it resets")
        }
        if changed { onChange?() }
    }

    // MARK: The file

    static let file = RulesFile<DataPlans>(name: fileName, words: "the data plans",
                                           maximumSize: DataPlansFileFormat.maximumSize,
                                           encode: DataPlansFileFormat.encode, decode: DataPlansFileFormat.decode,
                                           count: { $0.byNetwork.count })
}

extension DataPlanError: DBusErrorConvertible {
    public var dbusError: DBusError {
        switch self {
        case .tooManyPlans: DBusError(.limitExceeded, description)
        default: DBusError(.invalidArgs, description)
        }
    }
}
