/// The rows of the tray icon's menu for one state: a pure function of the activities, their ages and whether the
/// user may end them all.
///
/// A header ("3 active"), one row per activity with its label as the tooltip shows it and its age ("backup —
/// 3 min"), a separator, "Show details" (what a click on the icon does) and, where the user may, "End all
/// activities".
public struct TrayMenu: Sendable, Equatable {
    /// One row, in order.
    public enum Row: Sendable, Equatable {
        /// How many are active; for reading only.
        case header(String)
        /// One activity, for reading only.
        case activity(String)
        case separator
        /// Shows the activities in a notification.
        case showDetails
        /// Ends every activity (the service's `Reset`).
        case endAll
    }

    public static let showDetailsLabel = "Show details"
    public static let endAllLabel = "End all activities"
    /// Activities past this many are counted in one row ("and 12 more"), so that the menu fits on a screen.
    public static let listedActivities = 20

    public let rows: [Row]

    /// - Parameters:
    ///   - activities: every active activity's label and how long it has been active, ordered by id.
    ///   - mayEndAll: whether the user may end every activity, someone else's included.
    public init(activities: [(label: String, age: Duration)], mayEndAll: Bool) {
        var rows: [Row] = [.header(activities.isEmpty ? ActivitySummary.idleText : "\(activities.count) active")]
        for activity in activities.prefix(Self.listedActivities) {
            rows.append(.activity("\(ActivitySummary.displayed(activity.label)) — \(ElapsedTime.coarse(activity.age))"))
        }
        if activities.count > Self.listedActivities {
            rows.append(.activity("and \(activities.count - Self.listedActivities) more"))
        }
        rows.append(.separator)
        rows.append(.showDetails)
        if mayEndAll, !activities.isEmpty { rows.append(.endAll) }
        self.rows = rows
    }
}
