// SPDX-License-Identifier: Apache-2.0

/// How a rule holds an app: each way's speed in bytes a second (nil for no limit that way), and whether the app
/// goes on where a network's data plan is used up (`netactivity limit APP --over-plan allow`), as the apps a person
/// exempts from Android's data limit do; and what it does on a metered network (`--metered`).
public struct AppLimit: Sendable, Hashable {
    public var down: UInt64?
    public var up: UInt64?
    /// Whether the app's packets pass a used-up plan; they count towards the plan all the same.
    public var exemptFromPlans: Bool
    /// What holds it on a metered network; nil for the user's data saver to say (`LimitRules.saverUsers`).
    public var onMetered: MeteredRule?

    /// The slowest and fastest rates a limit may have: below a kilobyte a second, a single packet would wait for
    /// more than a second; above a terabyte, no interface a desktop has would feel it.
    public static let slowest: UInt64 = 1_000
    public static let fastest: UInt64 = 1_000_000_000_000

    public init(down: UInt64? = nil, up: UInt64? = nil, exemptFromPlans: Bool = false, onMetered: MeteredRule? = nil) {
        self.down = down
        self.up = up
        self.exemptFromPlans = exemptFromPlans
        self.onMetered = onMetered
    }

    /// Whether it limits either way's speed.
    public var limitsSpeed: Bool { down != nil || up != nil }

    /// Whether it says anything: a rule that says nothing is no rule.
    public var isNone: Bool { !limitsSpeed && !exemptFromPlans && onMetered == nil }
}
