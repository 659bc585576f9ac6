import Testing
@testable import NetworkActivity

@Suite("Activity table")
struct ActivityTableTests {
    /// Random inserts and removals, with ids chosen to share low bits, checked against a dictionary after every step.
    @Test(arguments: [1, 2, 3])
    func agreesWithADictionaryThroughRandomChanges(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var table = ActivityTable<Int>()
        var model: [ActivityID: Int] = [:]
        for step in 0..<20_000 {
            // Ids from a small range, many of them 16, 64 or 1024 apart: multiples of the slot count, which must not
            // share a home slot more often than others.
            let id = ActivityID(rawValue: UInt32(1 + Int(generator.next() % 64) * [1, 16, 64, 1024][step % 4]))
            if generator.next() % 3 == 0 || model[id] != nil {
                #expect(table.remove(id) == model.removeValue(forKey: id))
            } else {
                table.insert(step, for: id)
                model[id] = step
            }
            #expect(table.count == model.count)
            if step % 97 == 0 {
                for (id, value) in model { #expect(table[id] == value) }
            }
        }
        for (id, value) in model { #expect(table[id] == value) }
        #expect(table.ids.count == model.count && table.values.count == model.count)
    }

    @Test func growsWhenHalfFullAndShrinksBackWhenEmptied() {
        var table = ActivityTable<String>()
        let ids = (1...10_000).map { ActivityID(rawValue: UInt32($0)) }
        for id in ids { table.insert("label \(id)", for: id) }
        #expect(table.slotCount == 32_768)
        #expect(table[ids[4_999]] == "label 5000")
        for id in ids.dropLast() { table.remove(id) }
        #expect(table.slotCount == ActivityTable<String>.keptSlotCount)
        #expect(table.ids.capacity < 1024 && table.values.capacity < 1024)
        #expect(table[ids.last!] == "label 10000")
        #expect(table.remove(ids[0]) == nil)
    }

    /// A crowd that stays does not lengthen the search for the ids handed out after it. With the id's low bits as
    /// its slot, 10,000 held ids filled one run of slots, and once later ids came round to it, each of their Begins
    /// and Ends walked up to 10,000 slots (a longest probe of 10,000).
    @Test func idsHandedOutLongAfterACrowdThatStaysFindTheirPlaceAtOnce() {
        var table = ActivityTable<Int>()
        for id in 1...10_000 { table.insert(id, for: ActivityID(rawValue: UInt32(id))) }
        for id in 10_001...200_000 {
            let later = ActivityID(rawValue: UInt32(id))
            table.insert(id, for: later)
            #expect(table.remove(later) == id)
        }
        #expect(table.count == 10_000 && table.slotCount == 32_768)
        #expect(table.longestProbe <= 2, "longest probe \(table.longestProbe)")
        #expect(table[ActivityID(rawValue: 5_000)] == 5_000 && table[ActivityID(rawValue: 15_000)] == nil)
    }

    /// Removal looks only as far as the longest probe, which stays short however many ids are live: a removal from
    /// 100,000 ids begun in sequence looks at a few slots (the stress run's peak took minutes when it looked along
    /// the whole run).
    @Test func aLargeTableKeepsItsProbesShort() {
        var table = ActivityTable<Int>()
        for id in 1...100_000 { table.insert(id, for: ActivityID(rawValue: UInt32(id))) }
        #expect(table.longestProbe <= 2, "longest probe \(table.longestProbe)")
        for id in stride(from: 1, through: 100_000, by: 2) { table.remove(ActivityID(rawValue: UInt32(id))) }
        #expect(table.count == 50_000)
        #expect(table[ActivityID(rawValue: 99_998)] == 99_998 && table[ActivityID(rawValue: 99_999)] == nil)
    }

    @Test(arguments: [2, 3])
    func idsThatCollidedMoveBackWhenTheOneBeforeThemGoes(sharing: Int) {
        // In 16 slots, the first `sharing` ids with the home slot of id 1: each lies one slot further than the last.
        let ids = (1...).lazy.filter { ActivityTable<Int>.home(of: ActivityID(rawValue: UInt32($0)), slotCount: 16)
            == ActivityTable<Int>.home(of: ActivityID(rawValue: 1), slotCount: 16) }.prefix(sharing)
        var table = ActivityTable<Int>()
        for id in ids { table.insert(id, for: ActivityID(rawValue: UInt32(id))) }
        #expect(table.slotCount == 16 && table.longestProbe == sharing - 1)
        table.remove(ActivityID(rawValue: 1))
        for id in ids.dropFirst() { #expect(table[ActivityID(rawValue: UInt32(id))] == id) }
    }

    @Test func updatesInPlaceOnlyWhatIsThere() {
        var table = ActivityTable<Int>()
        table.insert(1, for: ActivityID(rawValue: 7))
        #expect(table.update(ActivityID(rawValue: 7)) { value -> Int in value += 1; return value } == 2)
        #expect(table.update(ActivityID(rawValue: 23)) { $0 = 0 } == nil)
        #expect(table[ActivityID(rawValue: 7)] == 2 && table.count == 1)
    }
}

/// A small deterministic generator, so that a failure repeats.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
