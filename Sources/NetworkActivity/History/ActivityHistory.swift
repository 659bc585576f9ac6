// SPDX-License-Identifier: Apache-2.0
/// The activities that ended, kept per Unix user: the newest `limitPerUser` of each, for at most `maximumUsers`
/// users, so that the history is bounded in memory and in the state file whatever the callers do.
///
/// Entries whose user is unknown are kept apart, as one more user that only root reads.
public struct ActivityHistory: Sendable, Equatable {
    /// The most `--history` may keep per user.
    public static let maximumLimit = 1000
    /// Past this many users, the one whose newest entry is the oldest is forgotten for the newcomer.
    public static let maximumUsers = 64
    /// The key of the entries whose user is unknown.
    private static let unknownUser = UInt32.max

    public let limitPerUser: Int
    private var users: [UInt32: Entries] = [:]

    /// - Parameter limitPerUser: 0 keeps nothing; at most `maximumLimit`.
    public init(limitPerUser: Int) {
        precondition((0...Self.maximumLimit).contains(limitPerUser))
        self.limitPerUser = limitPerUser
    }

    /// Whether it keeps anything.
    public var isKept: Bool { limitPerUser > 0 }

    public var isEmpty: Bool { users.isEmpty }

    /// How many entries are kept, of all users.
    public var count: Int { users.values.reduce(0) { $0 + $1.count } }

    /// Keeps an entry, forgetting its user's oldest when the user has `limitPerUser`.
    public mutating func record(_ entry: FinishedActivity) {
        guard isKept else { return }
        let user = entry.user ?? Self.unknownUser
        if let index = users.index(forKey: user) {
            users.values[index].append(entry, limit: limitPerUser)
            return
        }
        if users.count >= Self.maximumUsers, let stalest = stalestUser() { users[stalest] = nil }
        var entries = Entries()
        entries.append(entry, limit: limitPerUser)
        users[user] = entries
    }

    /// A user's entries, newest first, at most `limit` of them (nil: all); every user's for `user` nil.
    public func entries(ofUser user: UInt32?, limit: Int? = nil) -> [FinishedActivity] {
        let newestFirst: [FinishedActivity]
        if let user {
            newestFirst = users[user]?.newestFirst ?? []
        } else {
            newestFirst = users.values.flatMap(\.newestFirst).sorted {
                ($0.endedAt, $0.id.rawValue) > ($1.endedAt, $1.id.rawValue)
            }
        }
        guard let limit, limit < newestFirst.count else { return newestFirst }
        return Array(newestFirst.prefix(limit))
    }

    /// What `reader` may read (`AccessRules.historyReadable`), newest first, at most `limit` (nil: all).
    public func entries(readBy reader: UInt32, limit: Int? = nil) -> [FinishedActivity] {
        entries(ofUser: AccessRules.historyReadable(by: reader), limit: limit)
    }

    /// Forgets a user's entries; returns how many there were.
    public mutating func clear(user: UInt32) -> Int {
        users.removeValue(forKey: user)?.count ?? 0
    }

    /// Every entry, oldest first within each user: for a fresh state file, read back in this order.
    public var all: [FinishedActivity] { users.values.flatMap(\.oldestFirst) }

    private func stalestUser() -> UInt32? {
        users.min { ($0.value.newestEndedAt ?? 0) < ($1.value.newestEndedAt ?? 0) }?.key
    }

    /// One user's entries in a ring: the oldest is overwritten once it is full.
    private struct Entries: Sendable, Equatable {
        private var ring: [FinishedActivity] = []
        /// Where the oldest is, once the ring is full.
        private var start = 0

        var count: Int { ring.count }

        mutating func append(_ entry: FinishedActivity, limit: Int) {
            if ring.count < limit {
                ring.append(entry)
            } else {
                ring[start] = entry
                start = (start + 1) % ring.count
            }
        }

        var oldestFirst: [FinishedActivity] { Array(ring[start...] + ring[..<start]) }

        var newestFirst: [FinishedActivity] { oldestFirst.reversed() }

        var newestEndedAt: UInt64? { ring.isEmpty ? nil : ring[(start + ring.count - 1) % ring.count].endedAt }
    }
}
