import CKernelCounters
import Foundation
import Testing
@testable import TrafficCounters

/// The kernel programs' encoding against their pseudo-C listings in `Tests/Cases/`: a change to an instruction
/// shows as a change to a line a person can read, and the listing is what `docs/netactivityd.md` explains.
/// (`TrafficKernelTests` loads the same programs into the running kernel, whose verifier must accept them.)
@Suite struct CountingProgramTests {
    static let maps: [Int32: String] = [100: "netact_counts", 200: "netact_wakeups", 300: "netact_announce",
                                        400: "netact_held", 500: "netact_plans", 600: "netact_metered"]

    static func listing(_ name: String) throws -> [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Cases/\(name).txt")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("#") && !$0.isEmpty }
    }

    @Test(arguments: [(CountingProgram.Way.received, "counting-program-received"),
                      (.sent, "counting-program-sent")])
    func theCountingProgramsAreTheirListings(way: CountingProgram.Way, listing: String) throws {
        let instructions = CountingProgram.instructions(way, counters: 100, wakeUps: 200, announcing: 300, held: 400,
                                                        plans: 500, metered: 600,
                                                        ringSize: 16_384, threshold: 32_768,
                                                        countsLoopback: false)
        #expect(BPFListing.lines(of: instructions, maps: Self.maps) == (try Self.listing(listing)))
    }

    @Test func theWakeAgainProgramIsItsListing() throws {
        let instructions = CountingProgram.wakeAgainInstructions(counters: 100)
        #expect(BPFListing.lines(of: instructions, maps: Self.maps) == (try Self.listing("wake-again-program")))
    }

    /// Counted or not, loopback is never paused nor under a plan: the interface check moves from the start to the
    /// pause's lookup and the plan's.
    @Test func withLoopbackCountedTheInterfaceCheckGuardsOnlyThePauseAndThePlan() {
        let without = CountingProgram.instructions(.received, counters: 100, wakeUps: 200, announcing: 300, held: 400,
                                                   plans: 500, metered: 600, ringSize: 16_384, threshold: 32_768,
                                                   countsLoopback: false)
        let with = CountingProgram.instructions(.received, counters: 100, wakeUps: 200, announcing: 300, held: 400,
                                                plans: 500, metered: 600, ringSize: 16_384, threshold: 32_768,
                                                countsLoopback: true)
        #expect(with.count == without.count + 2)
    }

    /// The kernel wants a ring buffer of whole pages: 64 KiB pages (some arm64 and ppc64le kernels) get one.
    @Test func theRingFollowsThePageSize() {
        #expect(WakeUpRing.size(pageSize: 4_096) == 16_384)
        #expect(WakeUpRing.size(pageSize: 16_384) == 16_384)
        #expect(WakeUpRing.size(pageSize: 65_536) == 65_536)
    }
}
