// SPDX-License-Identifier: Apache-2.0
public import ProgramSupport
/// What the kernel keeps counting between takes: an entry that stays in its map (an app it follows) holds its
/// totals since it was made, so each take adds only what moved since the last. An entry that does not stay is
/// gone after this take; one made again under a key that stayed starts from zero.
public struct StayingCounts<Key: Hashable & Sendable>: Sendable {
    /// The totals already added, by key, of the entries that stayed.
    private var added: [Key: ByteCounts] = [:]

    public init() {}

    /// What moved under `key` since the last take, from the kernel's totals `counted`; `stays`: the entry stays
    /// in the kernel after this take.
    public mutating func moved(_ key: Key, counted: ByteCounts, stays: Bool) -> ByteCounts {
        let before = stays ? added[key] : added.removeValue(forKey: key)
        if stays { added[key] = counted }
        // Smaller totals than were added: the kernel dropped the entry and made it again.
        let base = before.flatMap { $0.received <= counted.received && $0.sent <= counted.sent ? $0 : nil }
            ?? ByteCounts()
        return ByteCounts(received: counted.received - base.received, sent: counted.sent - base.sent)
    }

    /// The keys whose entries stay in the kernel.
    public var keys: Dictionary<Key, ByteCounts>.Keys { added.keys }
}
