// SPDX-License-Identifier: Apache-2.0
import Localization
public import NetworkActivityClient
import NetworkActivityInterface

/// What the "Limit" submenu under an app's measured traffic offers (`netactivity limit` from a menu): a few speeds
/// that hold the app both ways, one that lifts its limit, and whether it pauses on metered networks, with which of
/// them its rule holds now.
public struct LimitPresets: Sendable, Equatable {
    /// The speeds offered, in bytes a second, slowest first: decimal, as the command prints them.
    public static let rates: [UInt64] = [100_000, 1_000_000, 10_000_000]

    /// The app id the rule is for, as `status` shows it.
    public let application: String
    /// "Limit Steam".
    public let label: String
    /// What a screen reader says of the submenu's row: "Limit Steam’s speed".
    public let accessibleName: String
    /// The speed the app is held to both ways, 0 for none; nil where its rule holds it to a speed of its own
    /// (one way only, or not one of `rates`), which no preset shows as chosen.
    public let chosenRate: UInt64?
    /// Whether its rule pauses it on metered networks.
    public let pausesOnMetered: Bool

    /// The presets of `activity`, an app's measured traffic; nil for any other activity, which has no app id.
    public init?(of activity: ActivityStatus) {
        guard let application = activity.application, activity.isPausable else { return nil }
        self.application = application
        let shown = ActivitySummary.displayed(activity.label)
        // TRANSLATORS: the row that opens an app's speed limits: "Limit Steam".
        label = localized("Limit %s", shown)
        // TRANSLATORS: what a screen reader says of the Limit row: "Limit Steam’s speed".
        accessibleName = localized("Limit %s’s speed", activity.applicationName ?? shown)
        switch (activity.limitDown, activity.limitUp) {
        case (nil, nil): chosenRate = 0
        case (let down?, let up?) where down == up && Self.rates.contains(down): chosenRate = down
        default: chosenRate = nil
        }
        pausesOnMetered = activity.limitOnMetered == LimitRecord.Metered.pause
    }

    /// "1 MB/s".
    public static func label(ofRate rate: UInt64) -> String { ByteAmount.wholeRate(rate) }
    // TRANSLATORS: the preset in the Limit submenu that lifts an app's speed limit.
    public static var noLimitLabel: String { localized("No limit") }
    // TRANSLATORS: the check box in the Limit submenu: the app's network is paused while a network is metered.
    public static var pauseOnMeteredLabel: String { localized("Pause on metered networks") }
}
