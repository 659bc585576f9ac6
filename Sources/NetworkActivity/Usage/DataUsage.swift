// SPDX-License-Identifier: Apache-2.0
public import ProgramSupport
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


/// One row of the totals, as `GetUsage` answers it.
public struct UsageRow: Hashable, Sendable {
    public var entry: UsageEntry
    /// The app's name for people, as its activity's label.
    public var label: String
    public var bytes: ByteCounts
}

/// The data each app used, per user, per network and per day: the totals the system service keeps (with
/// `--traffic`) from the kernel's counts, for `keptDays` days, in a file of a bounded size (`UsageFileFormat`).
///
/// Bounded per user: a user's rows of a day (their apps on their networks, of one privacy) are at most
/// `maximumRowsPerUserAndDay`, and a day's at most `maximumRowsPerDay`; past either, that user's further apps and
/// networks that day add to one row of theirs, the app `otherApps` on the network `otherNetworks` (one for
/// metered, one not), so that one user who starts apps by the thousand fills only their own share, and no byte is
/// lost from a day's total. A day holds at most `maximumGroupsPerDay` users (and privacies); past that, a further
/// user's bytes are root's alone to read, as `otherUsers`. So a day has at most `maximumRowsPerDayInAll` rows,
/// whatever varies.
///
/// Kept by day, apps and networks by number: a month's answer reads that month's rows alone, and hashes numbers,
/// not names (90 days of 200 apps on 3 networks: `netactivity usage --month` went from 52 to 26 ms, the service's
/// memory from 23 to 12 MB). The names are those of the rows kept: they go with their days.
public struct DataUsage: Sendable, Equatable {
    public static let maximumRowsPerDay = 2_000
    public static let maximumRowsPerUserAndDay = 400
    public static let maximumGroupsPerDay = 200
    /// Every row a day can hold: the bounded ones, and each group's two folded ones (and the other users').
    public static let maximumRowsPerDayInAll = maximumRowsPerDay + 2 * (maximumGroupsPerDay + 1)
    /// The app that stands for a user's apps past a day's bound.
    public static let otherApps = "other-apps"
    /// The network that stands for a user's networks past a day's bound.
    public static let otherNetworks = "other-networks"
    /// The network that stands for every network namespace but the machine's (containers', users' own).
    public static let otherNamespaces = "other-namespaces"
    /// The app that stands for the users past a day's bound of users (root's alone to read).
    public static let otherUsers = "other-users"
    public static let defaultKeptDays = 90

    /// One row of a day, its app and network by number (`names`); `everyone` for no `privateTo`.
    private struct RowKey: Hashable, Sendable {
        var user: UInt32
        var privateTo: UInt32
        var application: Int32
        var network: Int32
        var metered: Bool

        var group: Group { Group(user: user, privateTo: privateTo) }
    }

    /// Whose rows a bound counts: a user's, of one privacy.
    private struct Group: Hashable, Sendable {
        var user: UInt32
        var privateTo: UInt32
    }

    /// A day's rows, and how many of them each group has that count against the bounds (folded ones do not).
    private struct Day: Sendable {
        var rows: [RowKey: ByteCounts] = [:]
        var bounded: [Group: Int] = [:]
        var boundedCount = 0
    }

    private static let everyone = UInt32.max

    public let keptDays: Int
    private var days: [UsageDay: Day] = [:]
    /// The apps' and networks' names, by number, and the numbers by name.
    private var names: [String] = []
    private var numbers: [String: Int32] = [:]
    /// Each app's label, the last one seen.
    public private(set) var labels: [String: String] = [:]

    public init(keptDays: Int = Self.defaultKeptDays) {
        self.keptDays = max(1, keptDays)
    }

    /// The newest day that holds a row.
    public var newestDay: UsageDay? { days.keys.max() }

    /// How many names are kept: those of the rows kept, and no more.
    public var nameCount: Int { names.count }

    /// Every row, by its entry: for the file and for tests.
    public var rows: [UsageEntry: ByteCounts] {
        var rows: [UsageEntry: ByteCounts] = [:]
        for (day, dayRows) in days {
            for (key, bytes) in dayRows.rows { rows[entry(of: key, on: day)] = bytes }
        }
        return rows
    }

    /// The bytes moved on `network`, both ways, every user's apps together, from the day `first` on: what a data
    /// plan's period used (`DataPlan`).
    public func bytes(on network: String, from first: UsageDay) -> UInt64 {
        guard let number = numbers[network] else { return 0 }
        return days.reduce(0) { sum, day in
            guard day.key >= first else { return sum }
            return day.value.rows.reduce(sum) { $0 + ($1.key.network == number ? $1.value.total : 0) }
        }
    }

    public static func == (lhs: DataUsage, rhs: DataUsage) -> Bool {
        lhs.keptDays == rhs.keptDays && lhs.labels == rhs.labels && lhs.rows == rhs.rows
    }

    /// Adds bytes that an app moved on a network on the entry's day, within the day's bounds.
    public mutating func add(_ bytes: ByteCounts, to entry: UsageEntry, label: String) {
        guard bytes.total > 0 else { return }
        var day = days.removeValue(forKey: entry.day) ?? Day()
        var group = Group(user: entry.user, privateTo: entry.privateTo ?? Self.everyone)
        var application = entry.application
        var network = entry.network
        if day.bounded[group] == nil, day.bounded.count >= Self.maximumGroupsPerDay {
            group = Group(user: 0, privateTo: 0)
            (application, network) = (Self.otherUsers, Self.otherNetworks)
        }
        // A name is numbered only once a row keeps it.
        let kept = numbers[application].flatMap { app in
            numbers[network].map { RowKey(user: group.user, privateTo: group.privateTo, application: app,
                                          network: $0, metered: entry.metered) }
        }.flatMap { day.rows[$0] == nil ? nil : $0 }
        if kept == nil, application != Self.otherUsers {
            if day.bounded[group, default: 0] >= Self.maximumRowsPerUserAndDay
                || day.boundedCount >= Self.maximumRowsPerDay {
                (application, network) = (Self.otherApps, Self.otherNetworks)
                if day.bounded[group] == nil { day.bounded[group] = 0 }
            } else {
                day.bounded[group, default: 0] += 1
                day.boundedCount += 1
            }
        } else if day.bounded[group] == nil {
            day.bounded[group] = 0
        }
        let key = kept ?? RowKey(user: group.user, privateTo: group.privateTo, application: number(of: application),
                                 network: number(of: network), metered: entry.metered)
        if application == entry.application { labels[entry.application] = label }
        day.rows[key, default: ByteCounts()] += bytes
        days[entry.day] = day
    }

    /// Forgets the days before the last `keptDays` up to `today`; returns whether any was forgotten.
    @discardableResult
    public mutating func dropOldDays(today: UsageDay) -> Bool {
        let oldest = today.adding(days: -(keptDays - 1))
        guard days.keys.contains(where: { $0 < oldest }) else { return false }
        days = days.filter { $0.key >= oldest }
        forgetUnusedNames()
        return true
    }

    /// The rows of `since` and later (all kept when nil) that a connection of `reader` may read, most bytes
    /// first: its own apps' and the machine's services', and everyone's for root and the service's own user.
    /// Without `daily`, each app's bytes on a network are summed over the days, in one row of the first day.
    public func rows(since: UsageDay?, daily: Bool = true, readableBy reader: UInt32?, serviceUser: UInt32)
        -> [UsageRow] {
        let first = since ?? days.keys.min() ?? UsageDay(daysSinceEpoch: 0)
        var readable: [UsageDay: [RowKey: ByteCounts]] = [:]
        for (day, dayRows) in days where day >= first {
            var answer = readable[daily ? day : first] ?? [:]
            for (key, bytes) in dayRows.rows where AccessRules.maySee(
                privateTo: key.privateTo == Self.everyone ? nil : key.privateTo, reader: reader,
                serviceUser: serviceUser) {
                answer[key, default: ByteCounts()] += bytes
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
        let foldedNumbers = Set([Self.otherApps, Self.otherUsers].compactMap { numbers[$0] })
        var cleared = 0
        for (day, dayRows) in days {
            let kept = dayRows.rows.filter { key, _ in !clearsAll && key.privateTo != reader }
            cleared += dayRows.rows.count - kept.count
            days[day] = kept.isEmpty ? nil : Self.day(of: kept, folded: foldedNumbers)
        }
        if cleared > 0 { forgetUnusedNames() }
        return cleared
    }

    /// A day of `rows`, its bounds counted again: a row of the folded apps or users counts against none.
    private static func day(of rows: [RowKey: ByteCounts], folded: Set<Int32>) -> Day {
        var day = Day(rows: rows)
        for key in rows.keys {
            if folded.contains(key.application) {
                if day.bounded[key.group] == nil { day.bounded[key.group] = 0 }
            } else {
                day.bounded[key.group, default: 0] += 1
                day.boundedCount += 1
            }
        }
        return day
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

    /// Numbers the names of the rows kept afresh, and forgets the rest and their labels.
    private mutating func forgetUnusedNames() {
        let oldNames = names
        names = []
        numbers = [:]
        for (day, dayRows) in days {
            var renumbered: [RowKey: ByteCounts] = [:]
            renumbered.reserveCapacity(dayRows.rows.count)
            for (key, bytes) in dayRows.rows {
                var kept = key
                kept.application = number(of: oldNames[Int(key.application)])
                kept.network = number(of: oldNames[Int(key.network)])
                renumbered[kept] = bytes
            }
            days[day]?.rows = renumbered
        }
        labels = labels.filter { numbers[$0.key] != nil }
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
    init(keptDays: Int, rows: [UsageEntry: ByteCounts], labels: [String: String]) {
        self.init(keptDays: keptDays)
        var byDay: [UsageDay: [RowKey: ByteCounts]] = [:]
        for (entry, bytes) in rows {
            let key = RowKey(user: entry.user, privateTo: entry.privateTo ?? Self.everyone,
                             application: number(of: entry.application), network: number(of: entry.network),
                             metered: entry.metered)
            byDay[entry.day, default: [:]][key, default: ByteCounts()] += bytes
        }
        let folded = Set([Self.otherApps, Self.otherUsers].compactMap { numbers[$0] })
        days = byDay.mapValues { Self.day(of: $0, folded: folded) }
        self.labels = labels.filter { numbers[$0.key] != nil && $0.key != Self.otherApps && $0.key != Self.otherUsers }
    }
}
