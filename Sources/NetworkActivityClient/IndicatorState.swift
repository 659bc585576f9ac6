// SPDX-License-Identifier: Apache-2.0
/// What a panel widget or tray icon shows, as `NetworkActivityClient.indicatorStates()` follows it.
public struct IndicatorState: Sendable, Equatable {
    /// Whether the service owns its name on the bus; when it does not, nothing is active.
    public var isServiceRunning: Bool
    /// Whether the indicator should show (the `Visible` property).
    public var isVisible: Bool
    /// How many activities are active (the `ActiveCount` property).
    public var activeCount: UInt32
    /// The active activities, in the order they began, with their progress; empty when the states do not carry them
    /// (`readsActivities: false`).
    public var activities: [ActivityStatus]

    /// The labels of the active activities, in the order they began; empty when the states do not carry them.
    public var labels: [String] { activities.map(\.label) }

    /// A state with these values.
    public init(isServiceRunning: Bool, isVisible: Bool, activeCount: UInt32, activities: [ActivityStatus]) {
        self.isServiceRunning = isServiceRunning
        self.isVisible = isVisible
        self.activeCount = activeCount
        self.activities = activities
    }

    /// The state while the service is not running: idle.
    public static let serviceStopped = IndicatorState(isServiceRunning: false, isVisible: false, activeCount: 0,
                                                      activities: [])
}
