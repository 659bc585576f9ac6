// SPDX-License-Identifier: Apache-2.0
import Localization
public import NetworkActivityClient

/// What the tray's menu and GNOME Shell's extension show of the day's data usage ("Used today"): the day's total,
/// its metered part, and the five apps that used most, from `GetUsage`'s rows of the day: the panel's user's own
/// apps and the machine's services, as the panel shows their activities (root reads everyone's rows, and sees them
/// with `netactivity usage`, not in a panel).
public struct DataUsedToday: Sendable, Equatable {
    /// How many apps are listed.
    public static let listedApps = 5

    /// One app's line.
    public struct App: Sendable, Equatable {
        public var application: String
        public var label: String
        public var bytes: UInt64
        /// Its share of the day's total, 0 to 1.
        public var share: Double
    }

    public let total: UInt64
    public let metered: UInt64
    /// The apps that used most, most first, at most `listedApps`.
    public let apps: [App]

    /// - Parameters:
    ///   - rows: `GetUsage`'s rows; those of other days than `day` (`YYYY-MM-DD`) are left out, and those private
    ///     to another user than `user`.
    ///   - user: the panel's user.
    public init(_ rows: [AppDataUsage], day: String, user: UInt32) {
        let today = rows.filter { $0.day == day && ($0.privateTo == nil || $0.privateTo == user) }
        total = today.reduce(0) { $0 + $1.total }
        metered = today.filter(\.isMetered).reduce(0) { $0 + $1.total }
        var perApp: [String: App] = [:]
        for row in today {
            perApp[row.application, default: App(application: row.application, label: row.label, bytes: 0, share: 0)]
                .bytes += row.total
        }
        let whole = total
        apps = perApp.values.sorted { ($0.bytes, $1.application) > ($1.bytes, $0.application) }
            .prefix(Self.listedApps)
            .map { app in
                var app = app
                app.share = whole > 0 ? Double(app.bytes) / Double(whole) : 0
                return app
            }
    }

    public var isEmpty: Bool { total == 0 }

    /// "Used today: 1.2 GB (300 MB metered)".
    public var headline: String {
        metered > 0 ? localized("Used today: %s (%s metered)", ByteAmount.text(total), ByteAmount.text(metered))
            : localized("Used today: %s", ByteAmount.text(total))
    }

    /// "Firefox — 1.1 GB".
    public static func line(_ app: App) -> String {
        localized("%s — %s", ActivitySummary.displayed(app.label), ByteAmount.text(app.bytes))
    }

    /// A data plan's line above the day's usage, its used share of the cap in place of a bar, which a dbusmenu row
    /// cannot draw: "Phone hotspot: 8.0 GB of 10.0 GB (80 %)".
    public static func planLine(_ plan: NetworkDataPlan) -> String {
        // TRANSLATORS: a data plan above "Used today": its network, what was used this period of its cap, the percent.
        localized("%s: %s of %s (%d %%)", plan.network, ByteAmount.text(plan.used), ByteAmount.text(plan.cap),
                  planPercent(plan))
    }

    /// The percent of a plan's cap used this period, 0 to 100.
    public static func planPercent(_ plan: NetworkDataPlan) -> Int {
        plan.cap == 0 ? 100 : Int(min(100, plan.used.multipliedReportingOverflow(by: 100).partialValue / plan.cap))
    }
}

/// The warning on metered connections: once an app of this user has used `threshold` bytes on metered networks
/// in a day, one notification for that app that day, naming the metered network it used most.
public struct MeteredWarnings: Sendable {
    /// One warning to show.
    public struct Warning: Sendable, Equatable {
        public var application: String
        public var label: String
        public var network: String
        public var bytes: UInt64
        public var day: String

        /// "Firefox has used 120 MB on Phone hotspot today".
        public var text: String {
            localized("%s has used %s on %s today", ActivitySummary.displayed(label), ByteAmount.text(bytes), network)
        }
    }

    public let threshold: UInt64
    /// `day app`, of the warnings shown.
    public private(set) var warned: Set<String>

    public init(threshold: UInt64, warned: Set<String> = []) {
        self.threshold = threshold
        self.warned = warned
    }

    /// The warnings due for `rows` of `day`, for the apps of `user`; each is due once.
    public mutating func due(_ rows: [AppDataUsage], user: UInt32, day: String) -> [Warning] {
        guard threshold > 0 else { return [] }
        var perApp: [String: (label: String, bytes: UInt64, networks: [String: UInt64])] = [:]
        for row in rows where row.day == day && row.isMetered && row.privateTo == user {
            var app = perApp[row.application] ?? (row.label, 0, [:])
            app.bytes += row.total
            app.networks[row.network, default: 0] += row.total
            perApp[row.application] = app
        }
        // Warnings of other days are forgotten: the set stays small.
        warned = warned.filter { $0.hasPrefix(day + " ") }
        var due: [Warning] = []
        for (application, app) in perApp.sorted(by: { $0.key < $1.key }) where app.bytes >= threshold {
            guard warned.insert(day + " " + application).inserted else { continue }
            let network = app.networks.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? ""
            due.append(Warning(application: application, label: app.label, network: network, bytes: app.bytes,
                               day: day))
        }
        return due
    }
}
