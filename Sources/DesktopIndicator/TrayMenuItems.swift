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
    }

    private enum RowID: Int32 {
        case header = 1, separator, showDetails, endAll, more, recentHeader, recentSeparator, clearRecent, usageHeader,
             usageSeparator
        /// The activities that finished, one row each.
        case firstRecent = 50
        /// The apps that used most today, one row each.
        case firstUsage = 60
        /// Activities are numbered from here, two rows each: the activity, and the row under it that stops,
        /// pauses or resumes it.
        case firstActivity = 100
    }

    private var rowNumbers: [ActivityID: Int32] = [:]
    /// What the row under each activity asked for when it was last drawn.
    private var actions: [ActivityID: Intent] = [:]
    private var nextRowNumber = RowID.firstActivity.rawValue

    public init() {}

    /// The items of `menu`; activities listed before keep their ids, and the ids of those no longer listed are
    /// forgotten.
    public mutating func items(of menu: TrayMenu) -> [MenuItem] {
        var listed = Set<ActivityID>()
        for case .activity(let id, _, _) in menu.rows { listed.insert(id) }
        rowNumbers = rowNumbers.filter { listed.contains($0.key) }
        actions = [:]
        var separators = [RowID.separator, .recentSeparator, .usageSeparator]
        return menu.rows.map { row in
            switch row {
            case .header(let text): Self.reading(.header, text)
            case .activity(let id, let text, let icon):
                MenuItem(id: rowNumber(of: id), label: MenuItem.literalLabel(text), isEnabled: false, iconName: icon)
            case .stop(let id, let text): MenuItem(id: rowNumber(of: id) + 1, label: MenuItem.literalLabel(text))
            case .stopping(let id, let text):
                MenuItem(id: rowNumber(of: id) + 1, label: MenuItem.literalLabel(text), isEnabled: false)
            case .pause(let id, let text, let accessibleName):
                action(.pause(id), of: id, text, accessibleName)
            case .resume(let id, let text, let accessibleName):
                action(.resume(id), of: id, text, accessibleName)
            case .more(let text): Self.reading(.more, text)
            case .separator: .separator(id: separators.removeFirst().rawValue)
            case .recentHeader: MenuItem(id: RowID.recentHeader.rawValue, label: TrayMenu.recentLabel, isEnabled: false)
            case .recent(let index, let text):
                MenuItem(id: RowID.firstRecent.rawValue + Int32(index), label: MenuItem.literalLabel(text),
                         isEnabled: false)
            case .clearRecent: MenuItem(id: RowID.clearRecent.rawValue, label: TrayMenu.clearRecentLabel)
            case .usageHeader(let text): Self.reading(.usageHeader, text)
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
            return rowNumbers.first { $0.value + 1 == id }.map { actions[$0.key] ?? .stop($0.key) }
        }
    }

    /// The row under an activity that pauses or resumes it.
    private mutating func action(_ intent: Intent, of id: ActivityID, _ text: String, _ accessibleName: String)
        -> MenuItem {
        actions[id] = intent
        return MenuItem(id: rowNumber(of: id) + 1, label: MenuItem.literalLabel(text),
                        accessibleDescription: accessibleName)
    }

    private static func reading(_ row: RowID, _ text: String) -> MenuItem {
        MenuItem(id: row.rawValue, label: MenuItem.literalLabel(text), isEnabled: false)
    }

    private mutating func rowNumber(of id: ActivityID) -> Int32 {
        if let number = rowNumbers[id] { return number }
        let number = nextRowNumber
        nextRowNumber = nextRowNumber >= Int32.max - 2 ? RowID.firstActivity.rawValue : nextRowNumber + 2
        rowNumbers[id] = number
        return number
    }
}
