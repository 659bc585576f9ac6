// SPDX-License-Identifier: Apache-2.0
public import NetworkActivityInterface

/// A network's data plan (`GetPlans`): its cap each period, and what this period used of it.
public struct NetworkDataPlan: Sendable, Hashable {
    /// The plan as the service gave it; `netactivity plans --json` writes its keys.
    public let record: PlanRecord

    public init(_ record: PlanRecord) {
        self.record = record
    }

    /// The network, as `usage` names it.
    public var network: String { record.network }
    /// Bytes a period, both ways.
    public var cap: UInt64 { record.settings.cap }
    /// `day`, `week` or `month`.
    public var period: String { record.settings.period }
    /// Bytes moved this period, and what may still move.
    public var used: UInt64 { record.used }
    public var left: UInt64 { record.left }
    /// The period's first day, and the day the next begins, `YYYY-MM-DD`.
    public var since: String { record.since }
    public var resets: String { record.resets }
    /// Below its warning, past it, or used up; nil from a service that does not say.
    public var level: PlanRecord.Level? { record.level }
    /// Whether its apps go on past the cap this period (`resumePlan(of:)`).
    public var isResumed: Bool { record.isResumed }
}

extension NetworkActivityClient {
    /// The machine's data plans (`GetPlans`), which everyone may read. Throws `NotCountingTraffic` where the
    /// system service does not count apps' traffic.
    public func plans() async throws(NetworkActivityError) -> [NetworkDataPlan] {
        try await call(PlansMembers.getPlans.serviceCall()).map(NetworkDataPlan.init)
    }

    /// Sets a network's plan (`SetPlan`, root only): `cap` bytes each `period` (`day`, `week` or `month`), from
    /// the day `starts`, people told at `warn` percent; nil for the defaults.
    public func setPlan(for network: String, cap: UInt64, period: String, starts: UInt32? = nil,
                        warn: UInt32? = nil) async throws(NetworkActivityError) {
        _ = try await call(PlansMembers.setPlan.serviceCall(network, PlanSettings(cap: cap, period: period,
                                                                                  starts: starts, warn: warn)))
    }

    /// Removes a network's plan (`RemovePlan`; root, or whom polkit authorizes).
    public func removePlan(of network: String) async throws(NetworkActivityError) {
        _ = try await call(PlansMembers.removePlan.serviceCall(network))
    }

    /// Lets the network's apps go on past its cap until the period ends (`ResumePlan`; root, or whom polkit
    /// authorizes).
    public func resumePlan(of network: String) async throws(NetworkActivityError) {
        _ = try await call(PlansMembers.resumePlan.serviceCall(network))
    }
}
