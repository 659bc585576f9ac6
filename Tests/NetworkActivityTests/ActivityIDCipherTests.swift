import TestSupport
import Testing
@testable import NetworkActivity
import ProgramSupport

/// Ids that tell nothing of anyone else's activities (`ActivityIDCipher`), and never reused across a restart.
@Suite("Activity ids")
struct ActivityIDCipherTests {
    static let key: [UInt64] = [0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210, 0x0F1E_2D3C_4B5A_6978, 42]

    @Test func aKeyedCipherIsAPermutationWithoutZeroAndUndoesItself() {
        let cipher = ActivityIDCipher(key: Self.key)
        var seen = Set<UInt32>()
        for count in UInt32(1)...100_000 {
            let id = cipher.id(forCount: count)
            #expect(id != 0)
            #expect(cipher.count(ofID: id) == count)
            seen.insert(id)
        }
        #expect(seen.count == 100_000, "no two counts share an id")
        #expect(cipher.id(forCount: UInt32.max) != 0 && cipher.count(ofID: cipher.id(forCount: UInt32.max)) == UInt32.max)
        // Counts in a row are far apart as ids: the next tells nothing of how many came between.
        let steps = (1..<1_000).map { Int64(cipher.id(forCount: $0 + 1)) - Int64(cipher.id(forCount: $0)) }
        #expect(Set(steps).count > 990 && steps.filter { abs($0) < 1_000 }.count < 10, "\(steps.prefix(10))")
        #expect(ActivityIDCipher.sequential.id(forCount: 7) == 7)
        #expect(ActivityIDCipher.random() != ActivityIDCipher.random())
    }

    /// A restarted service goes on under the key its state file keeps: none of the earlier instance's ids again.
    @Test func idsGoOnAcrossARestartUnderTheFilesKey() throws {
        let clock = TestClock()
        var first = ActivityCoordinator(limits: ActivityLimits(), delays: .none, clock: clock,
                                        idCipher: ActivityIDCipher(key: Self.key))
        var earlier = Set<ActivityID>()
        for number in 0..<50 {
            let id = try first.beginTimed(label: "lease \(number)", seconds: 600, caller: ":1.9", user: 1000)
            earlier.insert(id)
            if number % 2 == 0 { try first.end(id, caller: ":1.9") { 1000 } }
        }
        var journal = StateJournal()
        journal.appendFile(of: first.tracker, busID: "0123456789abcdef0123456789abcdef")
        let state = SavedState(reading: journal.bytes, maximumActivities: 100)
        #expect(state.problem == nil && state.idCipher == ActivityIDCipher(key: Self.key) && state.highestID == 50)

        var next = ActivityCoordinator(limits: ActivityLimits(), delays: .none, clock: clock, idCipher: .random())
        #expect(next.restore(state, isOnBus: nil) == 25)
        for number in 0..<50 {
            let id = try next.beginTimed(label: "after \(number)", seconds: 600, caller: ":1.10", user: 1000)
            #expect(!earlier.contains(id), "id \(id) of the earlier instance again")
            earlier.insert(id)
        }
    }

    /// A file of an earlier version, whose ids were the counts: the new key's ids pass the ones it still holds.
    @Test func aFileWhoseIdsWereTheCountsKeepsItsIdsAndTheNewKeysPassThem() throws {
        let clock = TestClock()
        var old = ActivityCoordinator(limits: ActivityLimits(), delays: .none, clock: clock)
        var held = Set<ActivityID>()
        for number in 0..<20 {
            held.insert(try old.beginTimed(label: "old \(number)", seconds: 600, caller: ":1.9", user: 1000))
        }
        var journal = StateJournal()
        journal.appendFile(of: old.tracker, busID: "0123456789abcdef0123456789abcdef")
        let state = SavedState(reading: journal.bytes, maximumActivities: 100)
        #expect(state.idCipher == nil && state.highestID == 20)
        var next = ActivityCoordinator(limits: ActivityLimits(), delays: .none, clock: clock,
                                       idCipher: ActivityIDCipher(key: Self.key))
        #expect(next.restore(state, isOnBus: nil) == 20)
        for number in 0..<200 {
            let id = try next.beginTimed(label: "new \(number)", seconds: 600, caller: ":1.10", user: 1000)
            #expect(!held.contains(id))
            held.insert(id)
        }
    }
}
