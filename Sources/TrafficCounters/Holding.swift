// SPDX-License-Identifier: Apache-2.0

/// How the kernel holds an app's packets back (`TrafficCounters.hold`): paused, or each way kept to a rate; and
/// whether they pass a used-up data plan; and how they are held on a metered network.
public struct Holding: Sendable, Hashable {
    public var paused: Bool
    /// Bytes a second received, at most; nil for no limit.
    public var receiveRate: UInt64?
    /// Bytes a second sent, at most; nil for no limit.
    public var sendRate: UInt64?
    /// Whether its packets pass where a network's plan is used up (they are taken from the allowance all the same).
    public var exemptFromPlans: Bool
    /// Whether its packets are dropped on a metered network.
    public var pausedOnMetered: Bool
    /// Bytes a second each way, at most, on a metered network (its own rates hold there too, if slower); nil
    /// for none.
    public var meteredRate: UInt64?

    public init(paused: Bool = false, receiveRate: UInt64? = nil, sendRate: UInt64? = nil,
                exemptFromPlans: Bool = false, pausedOnMetered: Bool = false, meteredRate: UInt64? = nil) {
        self.paused = paused
        self.receiveRate = receiveRate
        self.sendRate = sendRate
        self.exemptFromPlans = exemptFromPlans
        self.pausedOnMetered = pausedOnMetered
        self.meteredRate = meteredRate
    }

    /// Whether it holds anything back, somewhere.
    public var holdsBack: Bool {
        paused || pausedOnMetered || [receiveRate, sendRate, meteredRate].contains { ($0 ?? 0) > 0 }
    }

    /// Whether the held map must have an entry for it: to hold the app back, or to let it past a plan.
    var needsEntry: Bool { holdsBack || exemptFromPlans }

    /// How far ahead of now a limited way's queue may end before its packets are dropped, in nanoseconds: a
    /// quarter of a second of the rate, which keeps a 12 s transfer within 2 % above it. Less drops too much of
    /// the bursts of 64 KiB segments that a veth pair or a NIC's offloads hand over whole for TCP to keep its pipe
    /// full: a tenth of a second held a 2 MB/s download to 0.54× its limit, a quarter to 1.00× (`SpeedLimitTests`,
    /// 100 kB/s to 30 MB/s).
    static let horizon: UInt64 = 250_000_000

    /// How far ahead before a sent packet's socket is told of congestion, in nanoseconds.
    static let congestion: UInt64 = 10_000_000
}
