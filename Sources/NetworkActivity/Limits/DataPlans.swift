// SPDX-License-Identifier: Apache-2.0
public import ProgramSupport

/// The machine's data plans, by network as `usage` names it (NetworkManager's connection, else the interface):
/// root sets them, everyone reads them. The system service keeps them across restarts (`DataPlansFileFormat`).
public struct DataPlans: Sendable, Equatable {
    /// Plans the machine keeps: one for every network a laptop meets, few enough to check at every take.
    public static let maximumCount = 64
    /// The longest network name a plan may name, in UTF-8 bytes, as usage keeps them (`NetworkNames`).
    public static let maximumNetworkBytes = 64

    public private(set) var byNetwork: [String: DataPlan] = [:]
    /// The networks whose apps go on past the cap until their period ends, as Android's "Resume" at a data limit:
    /// by the first day of the period resumed.
    public private(set) var resumed: [String: UsageDay] = [:]

    public init() {}

    /// Every plan, by network's name.
    public var all: [(network: String, plan: DataPlan)] {
        byNetwork.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    public var isEmpty: Bool { byNetwork.isEmpty }

    public subscript(network: String) -> DataPlan? { byNetwork[network] }

    /// Sets the network's plan, in place of the one it had (and not resumed).
    public mutating func set(_ plan: DataPlan, for network: String) throws(DataPlanError) {
        try Self.check(network)
        if byNetwork[network] == nil, byNetwork.count >= Self.maximumCount { throw .tooManyPlans(limit: Self.maximumCount) }
        byNetwork[network] = plan
        resumed[network] = nil
    }

    /// Removes the network's plan; returns whether it had one.
    @discardableResult
    public mutating func remove(_ network: String) -> Bool {
        resumed[network] = nil
        return byNetwork.removeValue(forKey: network) != nil
    }

    /// Lets the network's apps go on past its cap until the period that `today` is in ends.
    public mutating func resume(_ network: String, on today: UsageDay) throws(DataPlanError) {
        try Self.check(network)
        guard let plan = byNetwork[network] else { throw .noPlan(network) }
        resumed[network] = plan.period(containing: today).first
    }

    /// Whether the network's plan is resumed in the period that `today` is in.
    public func isResumed(_ network: String, on today: UsageDay) -> Bool {
        guard let plan = byNetwork[network], let since = resumed[network] else { return false }
        return plan.period(containing: today).first == since
    }

    /// Forgets the resumptions of periods that ended; returns whether any was.
    @discardableResult
    public mutating func forgetEndedResumptions(on today: UsageDay) -> Bool {
        let ended = resumed.keys.filter { !isResumed($0, on: today) }
        for network in ended { resumed[network] = nil }
        return !ended.isEmpty
    }

    /// A network's name as `usage` shows it: not empty, without a control character, of at most
    /// `maximumNetworkBytes`.
    public static func check(_ network: String) throws(DataPlanError) {
        guard !network.isEmpty else { throw .invalidNetwork("is empty") }
        guard network.utf8.count <= maximumNetworkBytes else {
            throw .invalidNetwork("is longer than \(maximumNetworkBytes) bytes")
        }
        guard !network.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidNetwork("holds a control character")
        }
    }
}

/// The text of the plans file, in which the system service keeps `DataPlans` across restarts
/// (`docs/netactivityd.md`, "Data plans"): a line that names the format, then one line a plan, its fields split
/// by tabs (a network's name holds no control character):
///
/// ```
/// netactivity plans 2
/// Phone hotspot	10000000000	month	5	80	-
/// Office	5000000000	week	1	80	2026-11-30
/// ```
///
/// The network, the cap in bytes, the period, the day it starts, the warning's percent, and the first day of the
/// period in which it was resumed (`-` for none); the first version's lines lack the last field. Written whole at
/// each change (`AtomicFile`); a file that does not read whole is damaged, and none of it is believed.
public enum DataPlansFileFormat {
    static let header = "netactivity plans 2"
    /// Before plans could be resumed.
    static let firstHeader = "netactivity plans 1"

    /// The largest file believed: far more than `DataPlans.maximumCount` plans take.
    public static let maximumSize = 64 << 10

    public static func encode(_ plans: DataPlans) -> String {
        let lines = plans.all.map { network, plan in
            [network, String(plan.cap), plan.period.rawValue, String(plan.starts), String(plan.warnPercent),
             plans.resumed[network]?.description ?? "-"].joined(separator: "\t")
        }
        return ([header] + lines).joined(separator: "\n") + "\n"
    }

    /// The plans the text holds; nil when it is damaged (another header, a line that does not read, a plan out of
    /// range, a network twice or one too many).
    public static func decode(_ text: String) -> DataPlans? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first, first == Substring(header) || first == Substring(firstHeader), lines.last == ""
        else { return nil }
        let fieldCount = first == Substring(header) ? 6 : 5
        lines = Array(lines.dropFirst().dropLast())
        var plans = DataPlans()
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == fieldCount, let cap = UInt64(fields[1]),
                  let period = DataPlan.Period(rawValue: String(fields[2])),
                  let starts = Int(fields[3]), let warn = Int(fields[4]),
                  let plan = try? DataPlan(cap: cap, period: period, starts: starts, warnPercent: warn),
                  plans[String(fields[0])] == nil, (try? plans.set(plan, for: String(fields[0]))) != nil
            else { return nil }
            if fieldCount == 6, fields[5] != "-" {
                // The period's first day, as `resume` keeps it.
                guard let since = UsageDay(fields[5]), plan.period(containing: since).first == since else { return nil }
                try? plans.resume(String(fields[0]), on: since)
            }
        }
        return plans
    }
}
