public import NetworkActivityClient

/// The rows of the tray icon's menu for one state: a pure function of the activities, the time and whether the
/// user may end them all.
///
/// A header ("3 active"), one row per activity with its application, label, how far it is and its age ("Déjà Dup:
/// backup — 45 % · 3.2 MB/s — 3 min") beside the application's icon, under a cancellable one a row that stops it ("Stop backup", "Stopping backup…" once asked),
/// a separator, "Show details" (what a click on the icon does) and, where the user may, "End all activities".
///
/// Stop is a row of its own rather than a submenu: every host draws a flat menu the same way, where GNOME's
/// extension and waybar open submenus differently (on hover, or as an expander), and a person sees at once which
/// activities can be stopped.
public struct TrayMenu: Sendable, Equatable {
    /// One row, in order.
    public enum Row: Sendable, Equatable {
        /// How many are active; for reading only.
        case header(String)
        /// One activity, for reading only, with the icon of its application where its desktop file names one
        /// in the icon theme.
        case activity(ActivityID, String, icon: String? = nil)
        /// How many activities are not listed; for reading only.
        case more(String)
        /// Asks the activity's owner to stop it (`RequestCancel`).
        case stop(ActivityID, String)
        /// The activity has been asked to stop; for reading only.
        case stopping(ActivityID, String)
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
    ///   - activities: every active activity, ordered by id.
    ///   - time: now, in microseconds since the Unix epoch, for the ages.
    ///   - mayEndAll: whether the user may end every activity, someone else's included.
    public init(activities: [ActivityStatus], at time: UInt64, mayEndAll: Bool) {
        var rows: [Row] = [.header(activities.isEmpty ? ActivitySummary.idleText : "\(activities.count) active")]
        for activity in activities.prefix(Self.listedActivities) {
            rows.append(.activity(activity.id, activity.menuLine(at: time),
                                  icon: activity.applicationIcon.flatMap { $0.hasPrefix("/") ? nil : $0 }))
            let label = ActivitySummary.displayed(activity.label)
            if activity.isCancelRequested {
                rows.append(.stopping(activity.id, "Stopping \(label)…"))
            } else if activity.isCancellable {
                rows.append(.stop(activity.id, "Stop \(label)"))
            }
        }
        if activities.count > Self.listedActivities {
            rows.append(.more("and \(activities.count - Self.listedActivities) more"))
        }
        rows.append(.separator)
        rows.append(.showDetails)
        if mayEndAll, !activities.isEmpty { rows.append(.endAll) }
        self.rows = rows
    }
}
