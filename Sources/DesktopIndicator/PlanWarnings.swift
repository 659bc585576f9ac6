// SPDX-License-Identifier: Apache-2.0
import Localization
public import NetworkActivityClient
public import NetworkActivityInterface

/// The notifications of the machine's data plans: once a plan passes its warning's level in a period, and once it
/// is used up, one notification each, as Android tells of a data limit.
public struct PlanWarnings: Sendable {
    /// One notification to show.
    public struct Warning: Sendable, Equatable {
        public var network: String
        public var level: PlanRecord.Level
        public var used: UInt64
        public var cap: UInt64
        /// `YYYY-MM-DD`.
        public var resets: String

        public init(network: String, level: PlanRecord.Level, used: UInt64, cap: UInt64, resets: String) {
            self.network = network
            self.level = level
            self.used = used
            self.cap = cap
            self.resets = resets
        }

        public var summary: String {
            level == .usedUp ? localized("Data plan used up") : localized("Data plan")
        }

        /// "Phone hotspot: 8.0 GB of 10 GB used, resets on 5 December".
        public var body: String {
            let (used, cap) = (ByteAmount.text(used), ByteAmount.text(cap))
            let resets = LocalFormats.dayAndMonth(resets)
            return level == .usedUp
                ? localized("%s: %s of %s used; its apps are stopped until it resets on %s", network, used, cap, resets)
                : localized("%s: %s of %s used, resets on %s", network, used, cap, resets)
        }
    }

    /// `since network level`, of the notifications shown: a period's first day, the network and the level.
    public private(set) var shown: Set<String>

    public init(shown: Set<String> = []) {
        self.shown = shown
    }

    /// The notifications due for `plans` as they are now; each is due once a period. Those of periods that ended
    /// are forgotten, so the set stays small.
    public mutating func due(_ plans: [NetworkDataPlan]) -> [Warning] {
        let current = Set(plans.map { Self.prefix($0) })
        shown = shown.filter { key in current.contains { key.hasPrefix($0) } }
        var due: [Warning] = []
        for plan in plans.sorted(by: { $0.network < $1.network }) {
            guard let level = plan.level, level != .normal else { continue }
            // A plan used up at once is told of as used up alone.
            let levels: [PlanRecord.Level] = level == .usedUp ? [.warning, .usedUp] : [.warning]
            let fresh = levels.filter { shown.insert(Self.prefix(plan) + $0.rawValue).inserted }
            guard fresh.contains(level) else { continue }
            due.append(Warning(network: plan.network, level: level, used: plan.used, cap: plan.cap,
                               resets: plan.resets))
        }
        return due
    }

    private static func prefix(_ plan: NetworkDataPlan) -> String {
        plan.since + " " + plan.network + " "
    }
}
