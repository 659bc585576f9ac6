// SPDX-License-Identifier: Apache-2.0
/// What one row of the totals is about: an app of a user, on a network, on a day.
public struct UsageEntry: Hashable, Sendable {
    public var day: UsageDay
    /// The Unix user that owned the sockets.
    public var user: UInt32
    /// The user who alone may read the row (the app ran in that user's slice); nil for the machine's services,
    /// which everyone may read (`TrafficVisibility`, `AccessRules.maySee`).
    public var privateTo: UInt32?
    /// The app, named as traffic activities name it: its desktop id, a terminal's command, a unit's name.
    public var application: String
    /// The network, for people: NetworkManager's connection (`Phone hotspot`), else the interface (`eth0`).
    public var network: String
    /// Whether the network was metered when the bytes moved.
    public var metered: Bool

    public init(day: UsageDay, user: UInt32, privateTo: UInt32?, application: String, network: String,
                metered: Bool) {
        self.day = day
        self.user = user
        self.privateTo = privateTo
        self.application = application
        self.network = network
        self.metered = metered
    }
}

/// Bytes received and sent.
public struct UsageBytes: Hashable, Sendable {
    public var received: UInt64
    public var sent: UInt64

    public init(received: UInt64 = 0, sent: UInt64 = 0) {
        self.received = received
        self.sent = sent
    }

    public var total: UInt64 { received &+ sent }

    public static func += (lhs: inout UsageBytes, rhs: UsageBytes) {
        lhs.received &+= rhs.received
        lhs.sent &+= rhs.sent
    }
}

/// One row of the totals, as `GetUsage` answers it.
public struct UsageRow: Hashable, Sendable {
    public var entry: UsageEntry
    /// The app's name for people, as its activity's label.
    public var label: String
    public var bytes: UsageBytes
}

/// The data each app used, per user, per network and per day: the totals the system service keeps (with
/// `--traffic`) from the kernel's counts, for `keptDays` days, in a file of a bounded size (`UsageFileFormat`).
///
/// Bounded: a day holds at most `maximumRowsPerDay` rows; the bytes of apps past that are added to a row of the
/// app `otherApps`, so that a user who starts apps by the thousand costs the file nothing more, and no byte is
/// lost from a day's total.
public struct DataUsage: Sendable, Equatable {
    public static let maximumRowsPerDay = 2_000
    /// The app that stands for the apps past a day's bound.
    public static let otherApps = "other-apps"
    public static let defaultKeptDays = 90

    public let keptDays: Int
    public private(set) var rows: [UsageEntry: UsageBytes] = [:]
    /// Each app's label, the last one seen.
    public private(set) var labels: [String: String] = [:]
    private var rowsPerDay: [UsageDay: Int] = [:]

    public init(keptDays: Int = Self.defaultKeptDays) {
        self.keptDays = max(1, keptDays)
    }

    /// Adds bytes that an app moved on a network on the entry's day.
    public mutating func add(_ bytes: UsageBytes, to entry: UsageEntry, label: String) {
        guard bytes.total > 0 else { return }
        var entry = entry
        if rows[entry] == nil {
            if rowsPerDay[entry.day, default: 0] >= Self.maximumRowsPerDay {
                entry.application = Self.otherApps
            }
            if rows[entry] == nil { rowsPerDay[entry.day, default: 0] += 1 }
        }
        if entry.application != Self.otherApps { labels[entry.application] = label }
        rows[entry, default: UsageBytes()] += bytes
    }

    /// Forgets the days before the last `keptDays` up to `today`; returns whether any was forgotten.
    @discardableResult
    public mutating func dropOldDays(today: UsageDay) -> Bool {
        let oldest = today.adding(days: -(keptDays - 1))
        guard rowsPerDay.keys.contains(where: { $0 < oldest }) else { return false }
        rows = rows.filter { $0.key.day >= oldest }
        rowsPerDay = rowsPerDay.filter { $0.key >= oldest }
        let applications = Set(rows.keys.map(\.application))
        labels = labels.filter { applications.contains($0.key) }
        return true
    }

    /// The rows of `since` and later (all kept when nil) that a connection of `reader` may read, most bytes
    /// first: its own apps' and the machine's services', and everyone's for root and the service's own user.
    /// Without `daily`, each app's bytes on a network are summed over the days, in one row of the first day.
    public func rows(since: UsageDay?, daily: Bool = true, readableBy reader: UInt32?, serviceUser: UInt32)
        -> [UsageRow] {
        let first = since ?? rowsPerDay.keys.min() ?? UsageDay(daysSinceEpoch: 0)
        var readable: [UsageEntry: UsageBytes] = [:]
        for (entry, bytes) in rows where entry.day >= first
            && AccessRules.maySee(privateTo: entry.privateTo, reader: reader, serviceUser: serviceUser) {
            var key = entry
            if !daily { key.day = first }
            readable[key, default: UsageBytes()] += bytes
        }
        return readable.map { entry, bytes in
            UsageRow(entry: entry, label: labels[entry.application] ?? entry.application, bytes: bytes)
        }.sorted(by: Self.order)
    }

    /// Forgets the rows `reader` may clear: its own apps' (`privateTo` itself), and every row for root and the
    /// service's user. Returns how many.
    public mutating func clear(for reader: UInt32, serviceUser: UInt32) -> Int {
        let clearsAll = reader == 0 || reader == serviceUser
        let before = rows.count
        rows = rows.filter { entry, _ in !clearsAll && entry.privateTo != reader }
        guard rows.count != before else { return 0 }
        rowsPerDay = [:]
        for entry in rows.keys { rowsPerDay[entry.day, default: 0] += 1 }
        let applications = Set(rows.keys.map(\.application))
        labels = labels.filter { applications.contains($0.key) }
        return before - rows.count
    }

    /// Most bytes first; then by day, app and network, so that an answer never changes order by itself.
    static func order(_ lhs: UsageRow, _ rhs: UsageRow) -> Bool {
        if lhs.bytes.total != rhs.bytes.total { return lhs.bytes.total > rhs.bytes.total }
        if lhs.entry.day != rhs.entry.day { return lhs.entry.day > rhs.entry.day }
        if lhs.entry.application != rhs.entry.application { return lhs.entry.application < rhs.entry.application }
        if lhs.entry.network != rhs.entry.network { return lhs.entry.network < rhs.entry.network }
        return (lhs.entry.user, lhs.entry.metered ? 1 : 0) < (rhs.entry.user, rhs.entry.metered ? 1 : 0)
    }

    /// Rebuilds the totals from rows read back (`UsageFileFormat`).
    init(keptDays: Int, rows: [UsageEntry: UsageBytes], labels: [String: String]) {
        self.init(keptDays: keptDays)
        self.rows = rows
        self.labels = labels
        for entry in rows.keys { rowsPerDay[entry.day, default: 0] += 1 }
    }
}
