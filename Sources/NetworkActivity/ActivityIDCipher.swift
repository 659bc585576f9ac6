// SPDX-License-Identifier: Apache-2.0
/// Turns the service's count of the activities it began into their ids, so that an id tells nothing of anyone
/// else's: one user who begins two activities while another user's apps come and go sees two ids that say nothing
/// of how many came between. Ids are never reused: the count only grows, and across restarts it is kept with the
/// key in the state file (`StateJournal`), as the ids of an earlier instance were.
///
/// A keyed permutation of the 32-bit ids, not a secret of cryptographic strength: a four-round Feistel network
/// over the two 16-bit halves, each round a keyed 64-bit mix (SplitMix64's finalizer), with 0 never an id. Without
/// a key (`sequential`) ids are the counts themselves, as the domain's tests and the fuzzers' models read them.
public struct ActivityIDCipher: Sendable, Equatable {
    /// Four 64-bit round keys; nil for ids that are the counts.
    public let key: [UInt64]?

    public static let sequential = ActivityIDCipher(key: nil)

    public init(key: [UInt64]?) {
        self.key = key.flatMap { $0.count == 4 ? $0 : nil }
    }

    /// A cipher with a key drawn from the system's random source (`getrandom`).
    public static func random() -> ActivityIDCipher {
        var generator = SystemRandomNumberGenerator()
        return ActivityIDCipher(key: (0..<4).map { _ in generator.next() })
    }

    /// The id of the `count`th activity (from 1).
    public func id(forCount count: UInt32) -> UInt32 {
        guard let key else { return count }
        let id = permute(count, key)
        // 0 is no id: the count whose image it is takes the image of 0, which no count has.
        return id == 0 ? permute(0, key) : id
    }

    /// The count whose id is `id`: `id(forCount:)` undone.
    public func count(ofID id: UInt32) -> UInt32 {
        guard let key else { return id }
        return id == permute(0, key) ? unpermute(0, key) : unpermute(id, key)
    }

    /// `items` in the order their activities began, each id's count found once (a sort that undid ids in its
    /// comparisons made `GetActivities` of 10,000 four times as slow).
    public func inOrderBegun<Item>(_ items: some Sequence<Item>, id: (Item) -> ActivityID) -> [Item] {
        guard key != nil else { return items.sorted { id($0).rawValue < id($1).rawValue } }
        return items.map { (count: count(ofID: id($0).rawValue), item: $0) }.sorted { $0.count < $1.count }.map(\.item)
    }

    private func permute(_ value: UInt32, _ key: [UInt64]) -> UInt32 {
        var left = UInt16(truncatingIfNeeded: value >> 16)
        var right = UInt16(truncatingIfNeeded: value)
        for round in 0..<4 {
            (left, right) = (right, left ^ Self.mix(right, key[round]))
        }
        return UInt32(left) << 16 | UInt32(right)
    }

    private func unpermute(_ value: UInt32, _ key: [UInt64]) -> UInt32 {
        var left = UInt16(truncatingIfNeeded: value >> 16)
        var right = UInt16(truncatingIfNeeded: value)
        for round in (0..<4).reversed() {
            (left, right) = (right ^ Self.mix(left, key[round]), left)
        }
        return UInt32(left) << 16 | UInt32(right)
    }

    private static func mix(_ half: UInt16, _ roundKey: UInt64) -> UInt16 {
        var value = UInt64(half) ^ roundKey
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        value ^= value >> 31
        return UInt16(truncatingIfNeeded: value >> 48)
    }
}
