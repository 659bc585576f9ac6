/// Values by activity id, in a table made for ids handed out in sequence.
///
/// An id's search begins at its home slot: the top bits of the id times 2^64/φ (Fibonacci hashing), a multiply and
/// a shift. Ids handed out in sequence fall evenly over the slots, and so do ids that differ by a multiple of the
/// slot count: with the id's low bits as its slot, a crowd of activities that stay for hours filled one long run
/// of slots, and once the ids handed out came round to that run again, every Begin and End walked along it (see
/// `docs/performance.md`). Ids that share a home take the next free slot (linear probing), and a removal shifts
/// the slots after it back, so that no tombstones build up. Slots hold the index of a dense array of entries, 4
/// bytes each, and a removed entry's place is taken by the last one. The entries' ids are kept apart from their
/// values, so that a lookup reads only ids: reading the id of a whole entry copied its value. The table doubles
/// when half full and is rebuilt at a quarter of its size when less than an eighth full, so that memory follows
/// the live count; it keeps up to `keptSlotCount` slots (4 KB), so that a client coming and going with a hundred
/// activities costs no rebuilds.
struct ActivityTable<Value> {
    static var minimumSlotCount: Int { 16 }
    static var keptSlotCount: Int { 1024 }

    private(set) var ids: [ActivityID] = []
    private(set) var values: [Value] = []
    /// An entry's index plus one; 0 is a free slot.
    private var slots = [UInt32](repeating: 0, count: minimumSlotCount)
    /// No entry lies further than this from its home slot: how far a removal must look for entries to move back.
    private(set) var longestProbe = 0

    var count: Int { ids.count }
    var slotCount: Int { slots.count }

    subscript(id: ActivityID) -> Value? {
        guard case .occupied(_, let index) = find(id) else { return nil }
        return values[index]
    }

    /// Changes the value of `id` in place; returns nil, changing nothing, when `id` is not in the table.
    @discardableResult
    mutating func update<Result>(_ id: ActivityID, _ change: (inout Value) -> Result) -> Result? {
        guard case .occupied(_, let index) = find(id) else { return nil }
        return change(&values[index])
    }

    /// Adds `value` for `id`, which must not be in the table.
    mutating func insert(_ value: consuming Value, for id: ActivityID) {
        if (ids.count + 1) * 2 > slots.count { rebuild(slotCount: slots.count * 2) }
        guard case .free(let slot) = find(id) else { preconditionFailure("activity \(id) is in the table already") }
        ids.append(id)
        // Moved in, not copied: a copy retains what the value holds, and the caller's is released at once.
        values.append(consume value)
        slots[slot] = UInt32(ids.count)
        longestProbe = max(longestProbe, (slot - Self.home(of: id, slotCount: slots.count)) & (slots.count - 1))
    }

    /// Where the value of an id is, to be read and then removed with one lookup; good until the table changes.
    struct Location {
        fileprivate let slot: Int
        fileprivate let index: Int
    }

    /// Where the value of `id` is; nil when `id` is not in the table.
    func location(of id: ActivityID) -> Location? {
        guard case .occupied(let slot, let index) = find(id) else { return nil }
        return Location(slot: slot, index: index)
    }

    /// What `read` finds in the value at `location`, read in place.
    func read<Result>(at location: Location, _ read: (borrowing Value) -> Result) -> Result {
        read(values[location.index])
    }

    /// Takes the value of `id` out of the table.
    @discardableResult
    mutating func remove(_ id: ActivityID) -> Value? {
        guard let location = location(of: id) else { return nil }
        return remove(at: location)
    }

    /// Takes the value at `location` out of the table.
    mutating func remove(at location: Location) -> Value {
        let index = location.index
        vacate(location.slot)
        let last = ids.count - 1
        if index != last {
            guard case .occupied(let movedSlot, _) = find(ids[last]) else { preconditionFailure() }
            slots[movedSlot] = UInt32(index + 1)
            ids[index] = ids[last]
        }
        ids.removeLast()
        // The last value moves into the hole by a swap of memory; `swapAt` copied both through their value witnesses.
        var removed = values.removeLast()
        if index != last { swap(&removed, &values[index]) }
        if slots.count > Self.keptSlotCount, ids.count * 8 < slots.count {
            rebuild(slotCount: max(slots.count / 4, Self.keptSlotCount))
        }
        return removed
    }

    mutating func removeAll() {
        self = ActivityTable()
    }

    private enum Place {
        case occupied(slot: Int, index: Int)
        case free(slot: Int)
    }

    /// The slot where the search for `id` begins, in a table of `slotCount` slots (a power of two, 16 or more).
    static func home(of id: ActivityID, slotCount: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(id.rawValue) &* 0x9E37_79B9_7F4A_7C15) >> (64 - slotCount.trailingZeroBitCount))
    }

    /// The slot of `id`, or the free slot where it would go.
    private func find(_ id: ActivityID) -> Place {
        let mask = slots.count - 1
        var slot = Self.home(of: id, slotCount: slots.count)
        while slots[slot] != 0 {
            let index = Int(slots[slot]) - 1
            if ids[index] == id { return .occupied(slot: slot, index: index) }
            slot = (slot + 1) & mask
        }
        return .free(slot: slot)
    }

    /// Frees `hole` and moves back each following slot of the same run whose home slot is at or before the hole,
    /// so that every entry stays reachable from its home slot without a gap. Past `longestProbe` slots from the
    /// hole, no entry can have its home slot at or before it.
    private mutating func vacate(_ hole: Int) {
        let mask = slots.count - 1
        var hole = hole
        var next = (hole + 1) & mask
        while slots[next] != 0, (next - hole) & mask <= longestProbe {
            let home = Self.home(of: ids[Int(slots[next]) - 1], slotCount: slots.count)
            if (next - home) & mask >= (next - hole) & mask {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = 0
    }

    /// Lays the entries out again in `slotCount` slots, and the entries themselves in storage sized for them: an
    /// array keeps its capacity when emptied.
    private mutating func rebuild(slotCount: Int) {
        if slotCount < slots.count {
            ids = compacted(ids)
            values = compacted(values)
        }
        slots = [UInt32](repeating: 0, count: slotCount)
        longestProbe = 0
        let mask = slotCount - 1
        for (index, id) in ids.enumerated() {
            let home = Self.home(of: id, slotCount: slotCount)
            var slot = home
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt32(index + 1)
            longestProbe = max(longestProbe, (slot - home) & mask)
        }
    }

    /// The same elements in storage of their own size.
    private func compacted<Element>(_ elements: [Element]) -> [Element] {
        var compacted: [Element] = []
        compacted.reserveCapacity(elements.count)
        compacted.append(contentsOf: elements)
        return compacted
    }
}
