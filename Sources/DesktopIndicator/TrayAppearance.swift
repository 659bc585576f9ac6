// SPDX-License-Identifier: Apache-2.0
import Localization
public import NetworkActivityClient

/// What a tray icon does while nothing is active.
public enum IdleMode: String, Sendable, CaseIterable {
    /// Leave the tray: every host hides an item whose bus name goes away. The default.
    case hide
    /// Stay in the tray with the status Passive, which some hosts hide and others show with the idle look.
    case passive
    /// Stay in the tray with the idle look.
    case show
}

/// What the tray icon shows for one state of the indicator: a pure function of the state and the idle mode.
public struct TrayAppearance: Sendable, Equatable {
    /// The item's tooltip title and its title.
    public static var title: String { localized("Network activity") }

    /// Whether the item should be in the tray at all (own its bus name and be registered).
    public var isInTray: Bool
    /// Whether its status is Active (shown by every host) rather than Passive.
    public var isActive: Bool
    /// Which icon it shows.
    public var look: IndicatorLook
    /// The tooltip's text, plain (not yet escaped for markup): one line per activity with how far it is
    /// (`ActivityStatus.summaryLines`), "3 active" while they are not yet read, or the idle text.
    public var summary: String

    /// - Parameters:
    ///   - isVisible: the service's `Visible`, which already applies its anti-flicker delays.
    ///   - activeCount: the service's `ActiveCount`.
    ///   - activities: the active activities, as `GetActivities` and `ActivitiesChanged` tell them.
    public init(isVisible: Bool, activeCount: Int, activities: [ActivityStatus], idleMode: IdleMode) {
        isInTray = isVisible || idleMode != .hide
        isActive = isVisible || idleMode != .passive
        look = isVisible ? .active : .idle
        // Count and activities come from different signals; when both are there, the activities are the later word.
        summary = activities.isEmpty ? ActivitySummary(count: activeCount, labels: []).text
            : ActivityStatus.summaryLines(activities).joined(separator: "\n")
    }
}

extension TrayAppearance {
    /// What the item tells hosts for this appearance: its icon by name and drawn, its status and its tooltip.
    public var itemContent: ItemContent {
        let toolTip = ToolTip(iconName: look.iconName, title: Self.title, text: summary.markupEscaped)
        return ItemContent(title: Self.title, status: isActive ? .active : .passive, iconName: look.iconName,
                           iconPixmaps: Self.pixmaps[look] ?? [], toolTip: toolTip)
    }

    /// Each look's pixmaps, drawn once.
    private static let pixmaps: [IndicatorLook: [IconPixmap]] = Dictionary(uniqueKeysWithValues: [IndicatorLook.active, .idle].map { look in
        (look, IndicatorLook.pixmapSizes.map { size in
            IconPixmap(width: Int32(size), height: Int32(size), argb: look.pixels(size: size))
        })
    })
}

extension IndicatorState {
    /// Whether only the activities' progress (percent, amounts, rate) tells the two states apart: a change the
    /// tray may show later, paced.
    public func differsInProgressOnly(from other: IndicatorState) -> Bool {
        func withoutProgress(_ state: IndicatorState) -> IndicatorState {
            var state = state
            for index in state.activities.indices {
                state.activities[index].percent = nil
                state.activities[index].done = nil
                state.activities[index].total = nil
                state.activities[index].rate = nil
            }
            return state
        }
        return self != other && withoutProgress(self) == withoutProgress(other)
    }
}
