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
            // Ids from a small range, many of them 16, 64 or 1024 apart: the runs that probing and removal must handle.
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

    /// Removal looks only as far as the longest probe, which ids begun in sequence keep at zero however many are
    /// live: a removal from a run of 100,000 looks at no other slot (the stress run's peak took minutes before).
    @Test func idsInSequenceLieInTheirOwnSlots() {
        var table = ActivityTable<Int>()
        for id in 1...100_000 { table.insert(id, for: ActivityID(rawValue: UInt32(id))) }
        #expect(table.longestProbe == 0)
        for id in stride(from: 1, through: 100_000, by: 2) { table.remove(ActivityID(rawValue: UInt32(id))) }
        #expect(table.longestProbe == 0 && table.count == 50_000)
        #expect(table[ActivityID(rawValue: 99_998)] == 99_998 && table[ActivityID(rawValue: 99_999)] == nil)
    }

    @Test(arguments: [[1, 17], [1, 17, 33]])
    func idsThatCollidedMoveBackWhenTheOneBeforeThemGoes(ids: [Int]) {
        var table = ActivityTable<Int>()
        // 16 slots: 17 shares its slot with 1 and lies one further, 33 two further.
        for id in ids { table.insert(id, for: ActivityID(rawValue: UInt32(id))) }
        #expect(table.longestProbe == ids.count - 1)
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
