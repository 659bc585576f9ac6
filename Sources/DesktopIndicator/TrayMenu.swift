// SPDX-License-Identifier: Apache-2.0
import Localization
public import NetworkActivityClient

/// The rows of the tray icon's menu for one state: a pure function of the activities, the time and whether the
/// user may end them all.
///
/// A header ("3 active"), one row per activity with its application, label, how far it is and its age ("Déjà Dup:
/// backup — 45 % · 3.2 MB/s — 3 min") beside the application's icon, under a cancellable one a row that stops it ("Stop backup", "Stopping backup…" once asked),
/// under an app's measured traffic that the user may pause a row that pauses it or resumes it ("Pause Steam") and
/// one that opens its speed limits ("Limit Steam": `LimitPresets`),
/// a separator, the last few that finished under "Recent" with a row that clears them ("Déjà Dup: backup — 1.2 GB in
/// 6 min, finished 14:02"), the day's data usage with the five apps that used most ("Used today: 1.2 GB (300 MB
/// metered)", "Firefox — 1.1 GB") where the system service counts it, headed by the machine's data plans
/// ("Phone hotspot: 8.0 GB of 10.0 GB (80 %)"), "Show details" (what a click on the icon does) and, where the user may, "End all
/// activities".
///
/// Stop is a row of its own rather than a submenu: every host draws a flat menu the same way, where GNOME's
/// extension and waybar open submenus differently (on hover, or as an expander), and a person sees at once which
/// activities can be stopped. The speed limits are a submenu all the same: five rows under each app would push the
/// others off the screen, and they are chosen less often than an activity is stopped.
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
        /// Holds back the app's network (`Pause`), with what a screen reader says.
        case pause(ActivityID, String, accessibleName: String)
        /// Lets a paused app's network through again (`Resume`).
        case resume(ActivityID, String, accessibleName: String)
        /// Opens the app's speed limits and its rule on metered networks (`SetLimit`).
        case limit(ActivityID, LimitPresets)
        case separator
        /// Above the activities that finished; for reading only.
        case recentHeader
        /// One activity that finished, and how; for reading only.
        case recent(Int, String)
        /// Forgets the activities that finished (the service's `ClearHistory`).
        case clearRecent
        /// The day's data usage ("Used today: 1.2 GB (300 MB metered)"); for reading only.
        case usageHeader(String)
        /// One of the apps that used most today; for reading only.
        case usage(Int, String)
        /// A data plan of the machine, what it used of its cap this period, above the day's usage; for reading only.
        case plan(Int, String)
        /// Shows the activities in a notification.
        case showDetails
        /// Ends every activity (the service's `Reset`).
        case endAll
    }

    public static var showDetailsLabel: String { localized("Show details") }
    public static var endAllLabel: String { localized("End all activities") }
    // TRANSLATORS: the heading above the activities that finished lately.
    public static var recentLabel: String { localized("Recent") }
    public static var clearRecentLabel: String { localized("Clear recent") }
    /// How many of the activities that finished are listed.
    public static let listedRecent = 5
    /// The data plans listed; the machine keeps at most 64, and a laptop has two or three.
    public static let listedPlans = 5
    /// Activities past this many are counted in one row ("and 12 more"), so that the menu fits on a screen.
    public static let listedActivities = 20

    public let rows: [Row]

    /// - Parameters:
    ///   - activities: every active activity, in the order they began.
    ///   - recent: the activities that finished, newest first.
    ///   - time: now, in microseconds since the Unix epoch, for the ages.
    ///   - mayEndAll: whether the user may end every activity, someone else's included.
    ///   - usedToday: the day's data usage, where it is counted.
    ///   - plans: the machine's data plans, which head the day's usage.
    ///   - pausingUser: the Unix user of the menu, whose apps (root: every app) have Pause and Resume; nil: none.
    public init(activities: [ActivityStatus], recent: [HistoryEntry] = [], usedToday: DataUsedToday? = nil,
                plans: [NetworkDataPlan] = [], at time: UInt64, mayEndAll: Bool, pausingUser: UInt32? = nil) {
        var rows: [Row] = [.header(activities.isEmpty ? ActivitySummary.idleText
                                               : ActivitySummary.activeCount(activities.count))]
        for activity in activities.prefix(Self.listedActivities) {
            rows.append(.activity(activity.id, activity.menuLine(at: time),
                                  icon: activity.applicationIcon.flatMap { $0.hasPrefix("/") ? nil : $0 }))
            let label = ActivitySummary.displayed(activity.label)
            if activity.isCancelRequested {
                rows.append(.stopping(activity.id, localized("Stopping %s…", label)))
            } else if activity.isCancellable {
                rows.append(.stop(activity.id, localized("Stop %s", label)))
            } else if let isPaused = activity.isPaused, let pausingUser, pausingUser == 0 || activity.user == pausingUser {
                let app = activity.applicationName ?? label
                rows.append(isPaused
                    ? .resume(activity.id, localized("Resume %s", label),
                              // TRANSLATORS: what a screen reader says of the Resume row: "Resume Steam’s network".
                              accessibleName: localized("Resume %s’s network", app))
                    : .pause(activity.id, localized("Pause %s", label),
                             // TRANSLATORS: what a screen reader says of the Pause row: "Pause Steam’s network".
                             accessibleName: localized("Pause %s’s network", app)))
                if let presets = LimitPresets(of: activity) { rows.append(.limit(activity.id, presets)) }
            }
        }
        if activities.count > Self.listedActivities {
            rows.append(.more(ActivitySummary.andMore(activities.count - Self.listedActivities)))
        }
        rows.append(.separator)
        if !recent.isEmpty {
            rows.append(.recentHeader)
            for (index, entry) in recent.prefix(Self.listedRecent).enumerated() {
                rows.append(.recent(index, entry.menuLine))
            }
            rows.append(.clearRecent)
            rows.append(.separator)
        }
        let listedPlans = plans.sorted { $0.network < $1.network }.prefix(Self.listedPlans)
        for (index, plan) in listedPlans.enumerated() { rows.append(.plan(index, DataUsedToday.planLine(plan))) }
        if let usedToday, !usedToday.isEmpty {
            rows.append(.usageHeader(usedToday.headline))
            for (index, app) in usedToday.apps.enumerated() { rows.append(.usage(index, DataUsedToday.line(app))) }
        }
        if !listedPlans.isEmpty || !(usedToday?.isEmpty ?? true) { rows.append(.separator) }
        rows.append(.showDetails)
        if mayEndAll, !activities.isEmpty { rows.append(.endAll) }
        self.rows = rows
    }
}
