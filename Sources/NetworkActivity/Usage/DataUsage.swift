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
///
/// Kept by day, apps and networks by number: a month's answer reads that month's rows alone, and hashes numbers,
/// not names (90 days of 200 apps on 3 networks: `netactivity usage --month` went from 52 to 26 ms, the service's memory from 23 to 12 MB).
public struct DataUsage: Sendable, Equatable {
    public static let maximumRowsPerDay = 2_000
    /// The app that stands for the apps past a day's bound.
    public static let otherApps = "other-apps"
    public static let defaultKeptDays = 90

    /// One row of a day, its app and network by number (`names`); `everyone` for no `privateTo`.
    private struct RowKey: Hashable, Sendable {
        var user: UInt32
        var privateTo: UInt32
        var application: Int32
        var network: Int32
        var metered: Bool
    }

    private static let everyone = UInt32.max

    public let keptDays: Int
    private var days: [UsageDay: [RowKey: UsageBytes]] = [:]
    /// The apps' and networks' names, by number, and the numbers by name.
    private var names: [String] = []
    private var numbers: [String: Int32] = [:]
    /// Each app's label, the last one seen.
    public private(set) var labels: [String: String] = [:]

    public init(keptDays: Int = Self.defaultKeptDays) {
        self.keptDays = max(1, keptDays)
    }

    /// Every row, by its entry: for the file and for tests.
    public var rows: [UsageEntry: UsageBytes] {
        var rows: [UsageEntry: UsageBytes] = [:]
        for (day, dayRows) in days {
            for (key, bytes) in dayRows { rows[entry(of: key, on: day)] = bytes }
        }
        return rows
    }

    public static func == (lhs: DataUsage, rhs: DataUsage) -> Bool {
        lhs.keptDays == rhs.keptDays && lhs.labels == rhs.labels && lhs.rows == rhs.rows
    }

    /// Adds bytes that an app moved on a network on the entry's day.
    public mutating func add(_ bytes: UsageBytes, to entry: UsageEntry, label: String) {
        guard bytes.total > 0 else { return }
        var key = RowKey(user: entry.user, privateTo: entry.privateTo ?? Self.everyone,
                         application: number(of: entry.application), network: number(of: entry.network),
                         metered: entry.metered)
        var dayRows = days.removeValue(forKey: entry.day) ?? [:]
        if dayRows[key] == nil, dayRows.count >= Self.maximumRowsPerDay {
            key.application = number(of: Self.otherApps)
        }
        if names[Int(key.application)] != Self.otherApps { labels[entry.application] = label }
        dayRows[key, default: UsageBytes()] += bytes
        days[entry.day] = dayRows
    }

    /// Forgets the days before the last `keptDays` up to `today`; returns whether any was forgotten.
    @discardableResult
    public mutating func dropOldDays(today: UsageDay) -> Bool {
        let oldest = today.adding(days: -(keptDays - 1))
        guard days.keys.contains(where: { $0 < oldest }) else { return false }
        days = days.filter { $0.key >= oldest }
        forgetUnusedLabels()
        return true
    }

    /// The rows of `since` and later (all kept when nil) that a connection of `reader` may read, most bytes
    /// first: its own apps' and the machine's services', and everyone's for root and the service's own user.
    /// Without `daily`, each app's bytes on a network are summed over the days, in one row of the first day.
    public func rows(since: UsageDay?, daily: Bool = true, readableBy reader: UInt32?, serviceUser: UInt32)
        -> [UsageRow] {
        let first = since ?? days.keys.min() ?? UsageDay(daysSinceEpoch: 0)
        var readable: [UsageDay: [RowKey: UsageBytes]] = [:]
        for (day, dayRows) in days where day >= first {
            var answer = readable[daily ? day : first] ?? [:]
            for (key, bytes) in dayRows where AccessRules.maySee(
                privateTo: key.privateTo == Self.everyone ? nil : key.privateTo, reader: reader,
                serviceUser: serviceUser) {
                answer[key, default: UsageBytes()] += bytes
            }
            readable[daily ? day : first] = answer
        }
        return readable.flatMap { day, dayRows in
            dayRows.map { key, bytes in
                let entry = entry(of: key, on: day)
                return UsageRow(entry: entry, label: labels[entry.application] ?? entry.application, bytes: bytes)
            }
        }.sorted(by: Self.order)
    }

    /// Forgets the rows `reader` may clear: its own apps' (`privateTo` itself), and every row for root and the
    /// service's user. Returns how many.
    public mutating func clear(for reader: UInt32, serviceUser: UInt32) -> Int {
        let clearsAll = reader == 0 || reader == serviceUser
        var cleared = 0
        for (day, dayRows) in days {
            let kept = dayRows.filter { key, _ in !clearsAll && key.privateTo != reader }
            cleared += dayRows.count - kept.count
            days[day] = kept.isEmpty ? nil : kept
        }
        if cleared > 0 { forgetUnusedLabels() }
        return cleared
    }

    private mutating func number(of name: String) -> Int32 {
        if let known = numbers[name] { return known }
        let next = Int32(names.count)
        names.append(name)
        numbers[name] = next
        return next
    }

    private func entry(of key: RowKey, on day: UsageDay) -> UsageEntry {
        UsageEntry(day: day, user: key.user, privateTo: key.privateTo == Self.everyone ? nil : key.privateTo,
                   application: names[Int(key.application)], network: names[Int(key.network)], metered: key.metered)
    }

    private mutating func forgetUnusedLabels() {
        var used = Set<Int32>()
        for dayRows in days.values { for key in dayRows.keys { used.insert(key.application) } }
        labels = labels.filter { numbers[$0.key].map(used.contains) ?? false }
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
        for (entry, bytes) in rows {
            let key = RowKey(user: entry.user, privateTo: entry.privateTo ?? Self.everyone,
                             application: number(of: entry.application), network: number(of: entry.network),
                             metered: entry.metered)
            days[entry.day, default: [:]][key, default: UsageBytes()] += bytes
        }
        self.labels = labels
    }
}
