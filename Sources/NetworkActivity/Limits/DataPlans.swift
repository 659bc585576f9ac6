// SPDX-License-Identifier: Apache-2.0

/// The machine's data plans, by network as `usage` names it (NetworkManager's connection, else the interface):
/// root sets them, everyone reads them. The system service keeps them across restarts (`DataPlansFileFormat`).
public struct DataPlans: Sendable, Equatable {
    /// Plans the machine keeps: one for every network a laptop meets, few enough to check at every take.
    public static let maximumCount = 64
    /// The longest network name a plan may name, in UTF-8 bytes, as usage keeps them (`NetworkNames`).
    public static let maximumNetworkBytes = 64

    public private(set) var byNetwork: [String: DataPlan] = [:]

    public init() {}

    /// Every plan, by network's name.
    public var all: [(network: String, plan: DataPlan)] {
        byNetwork.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    public var isEmpty: Bool { byNetwork.isEmpty }

    public subscript(network: String) -> DataPlan? { byNetwork[network] }

    /// Sets the network's plan, in place of the one it had.
    public mutating func set(_ plan: DataPlan, for network: String) throws(DataPlanError) {
        try Self.check(network)
        if byNetwork[network] == nil, byNetwork.count >= Self.maximumCount { throw .tooManyPlans(limit: Self.maximumCount) }
        byNetwork[network] = plan
    }

    /// Removes the network's plan; returns whether it had one.
    @discardableResult
    public mutating func remove(_ network: String) -> Bool {
        byNetwork.removeValue(forKey: network) != nil
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
/// netactivity plans 1
/// Phone hotspot	10000000000	month	5	80
/// ```
///
/// The network, the cap in bytes, the period, the day it starts and the warning's percent. Written whole at each
/// change (`AtomicFile`); a file that does not read whole is damaged, and none of it is believed.
public enum DataPlansFileFormat {
    static let header = "netactivity plans 1"

    /// The largest file believed: far more than `DataPlans.maximumCount` plans take.
    public static let maximumSize = 64 << 10

    public static func encode(_ plans: DataPlans) -> String {
        let lines = plans.all.map { network, plan in
            [network, String(plan.cap), plan.period.rawValue, String(plan.starts), String(plan.warnPercent)]
                .joined(separator: "\t")
        }
        return ([header] + lines).joined(separator: "\n") + "\n"
    }

    /// The plans the text holds; nil when it is damaged (another header, a line that does not read, a plan out of
    /// range, a network twice or one too many).
    public static func decode(_ text: String) -> DataPlans? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(header), lines.last == "" else { return nil }
        lines = Array(lines.dropFirst().dropLast())
        var plans = DataPlans()
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 5, let cap = UInt64(fields[1]), let period = DataPlan.Period(rawValue: String(fields[2])),
                  let starts = Int(fields[3]), let warn = Int(fields[4]),
                  let plan = try? DataPlan(cap: cap, period: period, starts: starts, warnPercent: warn),
                  plans[String(fields[0])] == nil, (try? plans.set(plan, for: String(fields[0]))) != nil
            else { return nil }
        }
        return plans
    }
}
