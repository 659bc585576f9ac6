// SPDX-License-Identifier: Apache-2.0
public import NetworkActivityClient

/// The tray menu's rows as the dbusmenu items hosts draw, and what a click on one asks for: pure, so that the ids
/// and the clicks are tested without a bus.
///
/// An activity's rows keep their ids while it lasts, so that a click on a menu drawn a moment ago stops the
/// activity it showed, even after others came and went.
public struct TrayMenuItems: Sendable {
    /// What a click on a row asks for.
    public enum Intent: Sendable, Equatable {
        case showDetails
        case endAll
        case clearRecent
        /// Ask the activity's owner to stop it.
        case stop(ActivityID)
        /// Hold back the app's network, or let it through again.
        case pause(ActivityID)
        case resume(ActivityID)
        /// Hold every instance of the app to `rate` bytes a second both ways (`SetLimit`); 0 lifts its limit.
        case limit(application: String, rate: UInt64)
        /// Pause the app on metered networks, or leave it to the data saver again.
        case pauseOnMetered(application: String, Bool)
    }

    private enum RowID: Int32 {
        case header = 1, separator, showDetails, endAll, more, recentHeader, recentSeparator, clearRecent, usageHeader,
             usageSeparator
        /// The activities that finished, one row each.
        case firstRecent = 50
        /// The apps that used most today, one row each.
        case firstUsage = 60
        /// The machine's data plans, one row each.
        case firstPlan = 70
        /// Activities are numbered from here, `ActivityRow.count` rows each.
        case firstActivity = 100
    }

    /// The rows of one activity, by their offset from its number.
    private enum ActivityRow: Int32 {
        /// The activity; the row under it that stops, pauses or resumes it.
        case activity = 0, action
        /// The Limit submenu: its row, the presets' (`LimitPresets.rates`), "No limit", a separator and "Pause on
        /// metered networks".
        case limit, firstPreset
        case noLimit = 6, limitSeparator, pauseOnMetered
        static let count: Int32 = 9
    }

    private var rowNumbers: [ActivityID: Int32] = [:]
    /// What the row under each activity asked for when it was last drawn.
    private var actions: [ActivityID: Intent] = [:]
    /// The Limit submenu under each activity when it was last drawn.
    private var limits: [ActivityID: LimitPresets] = [:]
    private var nextRowNumber = RowID.firstActivity.rawValue

    public init() {}

    /// The items of `menu`; activities listed before keep their ids, and the ids of those no longer listed are
    /// forgotten.
    public mutating func items(of menu: TrayMenu) -> [MenuItem] {
        var listed = Set<ActivityID>()
        for case .activity(let id, _, _) in menu.rows { listed.insert(id) }
        rowNumbers = rowNumbers.filter { listed.contains($0.key) }
        actions = [:]
        limits = [:]
        var separators = [RowID.separator, .recentSeparator, .usageSeparator]
        return menu.rows.map { row in
            switch row {
            case .header(let text): Self.reading(.header, text)
            case .activity(let id, let text, let icon):
                MenuItem(id: rowNumber(of: id), label: MenuItem.literalLabel(text), isEnabled: false, iconName: icon)
            case .stop(let id, let text):
                MenuItem(id: rowNumber(of: id) + ActivityRow.action.rawValue, label: MenuItem.literalLabel(text))
            case .stopping(let id, let text):
                MenuItem(id: rowNumber(of: id) + ActivityRow.action.rawValue, label: MenuItem.literalLabel(text),
                         isEnabled: false)
            case .pause(let id, let text, let accessibleName):
                action(.pause(id), of: id, text, accessibleName)
            case .resume(let id, let text, let accessibleName):
                action(.resume(id), of: id, text, accessibleName)
            case .limit(let id, let presets): limitSubmenu(presets, of: id)
            case .more(let text): Self.reading(.more, text)
            case .separator: .separator(id: separators.removeFirst().rawValue)
            case .recentHeader: MenuItem(id: RowID.recentHeader.rawValue, label: TrayMenu.recentLabel, isEnabled: false)
            case .recent(let index, let text):
                MenuItem(id: RowID.firstRecent.rawValue + Int32(index), label: MenuItem.literalLabel(text),
                         isEnabled: false)
            case .clearRecent: MenuItem(id: RowID.clearRecent.rawValue, label: TrayMenu.clearRecentLabel)
            case .usageHeader(let text): Self.reading(.usageHeader, text)
            case .plan(let index, let text):
                MenuItem(id: RowID.firstPlan.rawValue + Int32(index), label: MenuItem.literalLabel(text), isEnabled: false)
            case .usage(let index, let text):
                MenuItem(id: RowID.firstUsage.rawValue + Int32(index), label: MenuItem.literalLabel(text),
                         isEnabled: false)
            case .showDetails: MenuItem(id: RowID.showDetails.rawValue, label: TrayMenu.showDetailsLabel)
            case .endAll: MenuItem(id: RowID.endAll.rawValue, label: TrayMenu.endAllLabel)
            }
        }
    }

    /// What a click on the item `id` asks for; nil for a row that is for reading, or one no longer listed.
    public func intent(ofClickOn id: Int32) -> Intent? {
        switch RowID(rawValue: id) {
        case .showDetails: return .showDetails
        case .endAll: return .endAll
        case .clearRecent: return .clearRecent
        default:
            // In 64 bits: a host may send any id, and the difference of two 32-bit ones can overflow.
            guard let (activity, first) = rowNumbers.first(where: {
                (0..<Int64(ActivityRow.count)).contains(Int64(id) - Int64($0.value))
            }) else { return nil }
            let offset = id - first
            let presets = limits[activity]
            switch offset {
            case ActivityRow.action.rawValue: return actions[activity] ?? .stop(activity)
            case ActivityRow.noLimit.rawValue: return presets.map { .limit(application: $0.application, rate: 0) }
            case ActivityRow.pauseOnMetered.rawValue:
                return presets.map { .pauseOnMetered(application: $0.application, !$0.pausesOnMetered) }
            case ActivityRow.firstPreset.rawValue..<ActivityRow.noLimit.rawValue:
                let rate = LimitPresets.rates[Int(offset - ActivityRow.firstPreset.rawValue)]
                return presets.map { .limit(application: $0.application, rate: rate) }
            default: return nil
            }
        }
    }

    /// The row that opens an app's speed limits, with the presets in it, the chosen one marked.
    private mutating func limitSubmenu(_ presets: LimitPresets, of id: ActivityID) -> MenuItem {
        limits[id] = presets
        let first = rowNumber(of: id)
        let rates = LimitPresets.rates.enumerated().map { index, rate in
            MenuItem(id: first + ActivityRow.firstPreset.rawValue + Int32(index), label: LimitPresets.label(ofRate: rate),
                     toggle: .radio(isOn: presets.chosenRate == rate))
        }
        let children = rates + [
            MenuItem(id: first + ActivityRow.noLimit.rawValue, label: LimitPresets.noLimitLabel,
                     toggle: .radio(isOn: presets.chosenRate == 0)),
            .separator(id: first + ActivityRow.limitSeparator.rawValue),
            MenuItem(id: first + ActivityRow.pauseOnMetered.rawValue, label: LimitPresets.pauseOnMeteredLabel,
                     toggle: .checkmark(isOn: presets.pausesOnMetered)),
        ]
        return MenuItem(id: first + ActivityRow.limit.rawValue, label: MenuItem.literalLabel(presets.label),
                        accessibleDescription: presets.accessibleName, children: children)
    }

    /// The row under an activity that pauses or resumes it.
    private mutating func action(_ intent: Intent, of id: ActivityID, _ text: String, _ accessibleName: String)
        -> MenuItem {
        actions[id] = intent
        return MenuItem(id: rowNumber(of: id) + ActivityRow.action.rawValue, label: MenuItem.literalLabel(text),
                        accessibleDescription: accessibleName)
    }

    private static func reading(_ row: RowID, _ text: String) -> MenuItem {
        MenuItem(id: row.rawValue, label: MenuItem.literalLabel(text), isEnabled: false)
    }

    private mutating func rowNumber(of id: ActivityID) -> Int32 {
        if let number = rowNumbers[id] { return number }
        let number = nextRowNumber
        nextRowNumber = nextRowNumber >= Int32.max - ActivityRow.count ? RowID.firstActivity.rawValue
            : nextRowNumber + ActivityRow.count
        rowNumbers[id] = number
        return number
    }
}
