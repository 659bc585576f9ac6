// SPDX-License-Identifier: Apache-2.0
public import ProgramSupport

/// A network's data plan (`netactivity plan NETWORK --cap SIZE --period month`): how much the machine may move on
/// it in each period, both ways, every user's apps together, as a carrier counts a plan. At `warnPercent` of the
/// cap people are told once; at the cap the apps moving on the network stop until the period resets.
public struct DataPlan: Sendable, Hashable {
    /// How long a period lasts; each starts at local midnight.
    public enum Period: String, Sendable, CaseIterable {
        case day
        case week
        case month
    }

    /// Bytes a period, both ways.
    public var cap: UInt64
    public var period: Period
    /// The day a period starts: a week's 1 (Monday) to 7 (Sunday), a month's 1 to 31 (a month with fewer days
    /// starts on its last, as phones reset a plan); a day's is 1.
    public var starts: Int
    /// How much of the cap, in percent, is used when people are told.
    public var warnPercent: Int

    /// The smallest and largest caps: below a megabyte a plan would stop an app at its first page; a petabyte is
    /// more than any plan sells.
    public static let smallestCap: UInt64 = 1_000_000
    public static let largestCap: UInt64 = 1_000_000_000_000_000
    /// Android's and Windows' warning, at 80 % of the limit.
    public static let defaultWarnPercent = 80

    /// Throws `DataPlanError` for a cap, start or warning out of range.
    public init(cap: UInt64, period: Period, starts: Int? = nil, warnPercent: Int? = nil) throws(DataPlanError) {
        guard cap >= Self.smallestCap, cap <= Self.largestCap else { throw .invalidCap(cap) }
        let starts = starts ?? 1
        guard period.startingDays.contains(starts) else { throw .invalidStart(starts, period) }
        let warnPercent = warnPercent ?? Self.defaultWarnPercent
        guard (1...100).contains(warnPercent) else { throw .invalidWarning(warnPercent) }
        self.cap = cap
        self.period = period
        self.starts = starts
        self.warnPercent = warnPercent
    }

    /// The most one packet carries as the programs see it: a segment that a NIC's or a veth pair's offloads
    /// hand over whole (64 KiB).
    public static let largestPacket: UInt64 = 65_536

    /// Whether a period that used `used` bytes is used up: what is left lets no full packet through (the kernel
    /// lets pass the packets that fit, and drops the first that does not).
    public func isUsedUp(_ used: UInt64) -> Bool {
        used >= cap || cap - used < Self.largestPacket
    }

    /// The bytes at which people are told.
    public var warnsAt: UInt64 { cap / 100 * UInt64(warnPercent) + cap % 100 * UInt64(warnPercent) / 100 }

    /// Where the next level lies for a period that used `used` bytes: the allowance (what is left) below which the
    /// plan reaches its warning, or is used up; nil once it is used up.
    public func nextLevel(afterUsing used: UInt64) -> UInt64? {
        if used < warnsAt { return cap - warnsAt + 1 }
        return isUsedUp(used) ? nil : Self.largestPacket
    }

    /// The period `day` is in: its first day, and the day the next begins (when the plan resets).
    public func period(containing day: UsageDay) -> (first: UsageDay, resets: UsageDay) {
        switch period {
        case .day:
            return (day, day.adding(days: 1))
        case .week:
            let first = day.weekStart.adding(days: starts - 1)
            return first > day ? (first.adding(days: -7), first) : (first, first.adding(days: 7))
        case .month:
            let thisMonth = Self.start(inMonth: day.month, of: day.year, on: starts)
            if thisMonth <= day {
                let (year, month) = day.month == 12 ? (day.year + 1, 1) : (day.year, day.month + 1)
                return (thisMonth, Self.start(inMonth: month, of: year, on: starts))
            }
            let (year, month) = day.month == 1 ? (day.year - 1, 12) : (day.year, day.month - 1)
            return (Self.start(inMonth: month, of: year, on: starts), thisMonth)
        }
    }

    /// The day `starts` of a month, or its last where it has fewer days.
    private static func start(inMonth month: Int, of year: Int, on starts: Int) -> UsageDay {
        UsageDay(year: year, month: month, day: min(starts, UsageDay.length(ofMonth: month, in: year)))
            ?? UsageDay(year: year, month: month, day: 1)!
    }
}

extension DataPlan.Period {
    /// The days a period of this length may start on.
    public var startingDays: ClosedRange<Int> {
        switch self {
        case .day: 1...1
        case .week: 1...7
        case .month: 1...31
        }
    }
}

/// Why a plan was refused. Nothing has changed when one of these is thrown.
public enum DataPlanError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidNetwork(String)
    case invalidCap(UInt64)
    case invalidStart(Int, DataPlan.Period)
    case invalidWarning(Int)
    case invalidPeriod(String)
    case tooManyPlans(limit: Int)
    case noPlan(String)

    public var description: String {
        switch self {
        case .invalidNetwork(let reason): "the network's name \(reason)"
        case .invalidCap(let cap):
            "a cap of \(cap) bytes is out of range; give \(DataPlan.smallestCap) to \(DataPlan.largestCap)"
        case .invalidStart(let day, .day): "a daily plan starts at every midnight, not on day \(day)"
        case .invalidStart(let day, .week): "a week starts on day 1 (Monday) to 7 (Sunday), not \(day)"
        case .invalidStart(let day, .month): "a month starts on day 1 to 31, not \(day)"
        case .invalidWarning(let percent): "a warning is at 1 to 100 percent of the cap, not \(percent)"
        case .invalidPeriod(let period): "a period is day, week or month, not \"\(period)\""
        case .tooManyPlans(let limit): "the machine keeps at most \(limit) plans"
        case .noPlan(let network): "\(network) has no data plan"
        }
    }
}
