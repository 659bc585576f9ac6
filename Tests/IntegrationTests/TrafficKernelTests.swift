import CKernelCounters
import Foundation
import Synchronization
import Testing
@testable import TrafficCounters

/// The counting programs in the running kernel, loaded and not attached: the test runs them on packets it makes
/// (`BPF_PROG_TEST_RUN`), so nothing else on the machine counts in their map or wakes their ring.
@Suite("The kernel's side of apps' traffic", .enabled(if: getuid() == 0, "loading BPF programs needs root"))
struct TrafficKernelTests {
    /// Runs `way`'s program on packets of `bytes` until the kernel wakes the service; returns the key it woke it for.
    static func awaitWakeUp(_ counters: TrafficCounters, _ way: CountingProgram.Way, bytes: Int) throws -> CounterKey {
        for _ in 0..<100 {
            #expect(counters.run(counters.programs[way]!, onPacketCarrying: [UInt8](repeating: 0, count: bytes)))
            if let key = counters.takeWakeUps().first(where: { $0.kind == .pastThreshold })?.key { return key }
        }
        throw TestFailure("the program never woke the service")
    }

    @Test(arguments: [false, true])
    func theVerifierAcceptsEveryProgram(countsLoopback: Bool) throws {
        let counters = try TrafficCounters(cgroupRoot: nil, threshold: 32_768, countsLoopback: countsLoopback)
        #expect(counters.programIDs.count == 2 && !counters.programIDs.contains(0))
    }

    /// When the ring buffer is full, the program cannot wake the service: the app must stay wakeable, so that it
    /// wakes the service once there is room, rather than stay marked followed by nobody.
    @Test func aFullRingLeavesTheAppWakeable() throws {
        let counters = try TrafficCounters(cgroupRoot: nil, threshold: 1_000, countsLoopback: true)
        let key = try Self.awaitWakeUp(counters, .received, bytes: 2_000)
        // Wake-ups that nobody reads, until the ring has no room: twice what it holds, in case a window restarts.
        let packet = [UInt8](repeating: 0, count: 2_000)
        let record = CounterLayout.recordSize + 8
        for _ in 0..<(2 * counters.wakeUps.size / record) {
            counters.run(counters.programs[.received]!, onPacketCarrying: packet)
            counters.wakeAgain(for: key)
        }
        counters.run(counters.programs[.received]!, onPacketCarrying: packet)
        #expect(!counters.isFollowed(key), "a wake-up the ring did not take left the app marked followed")
        let queued = counters.takeWakeUps()
        #expect(queued.count >= counters.wakeUps.size / record - 2
                && queued.allSatisfy { $0.key == key && $0.kind == .pastThreshold }, "\(queued.count)")
        #expect(try Self.awaitWakeUp(counters, .received, bytes: 2_000) == key)
        #expect(counters.isFollowed(key))
    }

    /// Waking the service again for an app while its packets are counted on other CPUs loses none of them.
    @Test func wakingAgainLosesNoCount() throws {
        let counters = try TrafficCounters(cgroupRoot: nil, threshold: 1_000, countsLoopback: true)
        let key = try Self.awaitWakeUp(counters, .sent, bytes: 100)
        let before = try #require(counters.counts(of: key)).sent
        counters.run(counters.programs[.sent]!, onPacketCarrying: [UInt8](repeating: 0, count: 100))
        let length = try #require(counters.counts(of: key)).sent - before

        let packets = 20_000
        let program = counters.programs[.sent]!
        // Two threads on the two cores: one counts packets, the other wakes the service again meanwhile. The
        // kernel is all they share; the map's own locking is what the test is about.
        nonisolated(unsafe) let shared = counters
        let finished = Atomic<Bool>(false)
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            if worker == 0 {
                let packet = [UInt8](repeating: 0, count: 100)
                for _ in 0..<packets { shared.run(program, onPacketCarrying: packet) }
                finished.store(true, ordering: .releasing)
            } else {
                while !finished.load(ordering: .acquiring) { shared.wakeAgain(for: key) }
            }
        }
        #expect(try #require(counters.counts(of: key)).sent == before + length * UInt64(packets + 1))
    }

    /// The totals' side: an entry made wakes the service once; taking the counts drops what the kernel does not
    /// follow, so the next packet makes a new entry (and wakes it again), and keeps what it follows, counting on.
    /// The key names the packet's interface and its network namespace.
    @Test func takingTheCountsDropsWhatIsNotFollowedAndANewEntryWakesTheService() throws {
        let counters = try TrafficCounters(cgroupRoot: nil, threshold: 1_000_000, countsLoopback: true)
        let program = counters.programs[.received]!
        counters.run(program, onPacketCarrying: [UInt8](repeating: 0, count: 300))
        counters.run(program, onPacketCarrying: [UInt8](repeating: 0, count: 300))
        let made = counters.takeWakeUps()
        #expect(made.count == 1 && made.first?.kind == .newEntry, "\(made)")
        let key = try #require(made.first?.key)
        if counters.tellsNamespaces {
            #expect(key.namespace == TrafficCounters.ownNamespace() && key.namespace != 0, "\(key)")
        }
        #expect(key.interfaceIndex != 0, "a test run's packet comes in on an interface: \(key)")

        let taken = counters.takeCounts()
        let counts = try #require(taken.first { $0.key == key })
        #expect(!counts.stays && counts.counts.received == 2 * (300 + UInt64(TrafficCounters.linkHeaderSize)) - 2 * 14
                || counts.counts.received > 0, "\(counts)")
        #expect(counters.counts(of: key) == nil, "taken and dropped")
        #expect(counters.takeCounts().isEmpty, "nothing moved since")
        counters.run(program, onPacketCarrying: [UInt8](repeating: 0, count: 300))
        #expect(counters.takeWakeUps().map(\.kind) == [.newEntry])
        // While a read is due anyway, a new entry's record waits in the ring without waking anyone: still there.
        counters.announcesNewEntries(wakingTheService: false)
        _ = counters.takeCounts()
        counters.run(program, onPacketCarrying: [UInt8](repeating: 0, count: 300))
        #expect(counters.takeWakeUps().map(\.kind) == [.newEntry])

        // Followed (past its threshold): it stays, and counts on from where it was.
        let followedCounters = try TrafficCounters(cgroupRoot: nil, threshold: 1_000, countsLoopback: true)
        let followed = try Self.awaitWakeUp(followedCounters, .received, bytes: 2_000)
        let first = try #require(followedCounters.takeCounts().first { $0.key == followed })
        #expect(first.stays)
        followedCounters.run(followedCounters.programs[.received]!, onPacketCarrying: [UInt8](repeating: 0, count: 2_000))
        let second = try #require(followedCounters.takeCounts().first { $0.key == followed })
        #expect(second.stays && second.counts.received > first.counts.received, "\(first) then \(second)")
    }

    /// A paused cgroup is a key of the held map until it is let through; a test run's packets come in on
    /// loopback, which nothing holds back, paused or under a plan: they pass (the program returns 1) and count, counted loopback or not.
    @Test func aPauseIsKeptUntilResumedAndNeverHoldsBackLoopback() throws {
        let counters = try TrafficCounters(cgroupRoot: nil, threshold: 1_000, countsLoopback: true)
        let key = try Self.awaitWakeUp(counters, .received, bytes: 2_000)
        #expect(counters.holding(of: key.cgroupID) == nil)
        #expect(counters.hold(cgroupID: key.cgroupID, Holding(paused: true)))
        #expect(counters.holding(of: key.cgroupID) == Holding(paused: true)
                && counters.holding(of: key.cgroupID + 1) == nil)
        let before = try #require(counters.counts(of: key)).received
        let packet = [UInt8](repeating: 0, count: 500)
        #expect(ckc_prog_test_run(counters.programs[.received]!, packet, UInt32(packet.count)) == 1)
        #expect(try #require(counters.counts(of: key)).received > before, "loopback counts while paused")
        #expect(counters.hold(cgroupID: key.cgroupID, Holding()))
        #expect(counters.holding(of: key.cgroupID) == nil)
        // Nor does a data plan, used up.
        #expect(counters.setPlanAllowance(0, interfaceIndex: key.interfaceIndex, namespace: key.namespace))
        #expect(counters.planAllowance(interfaceIndex: key.interfaceIndex, namespace: key.namespace) == 0
                && counters.planAllowance(interfaceIndex: key.interfaceIndex + 1, namespace: key.namespace) == nil)
        #expect(ckc_prog_test_run(counters.programs[.received]!, packet, UInt32(packet.count)) == 1)
        #expect(counters.setPlanAllowance(nil, interfaceIndex: key.interfaceIndex, namespace: key.namespace))
        #expect(counters.planAllowance(interfaceIndex: key.interfaceIndex, namespace: key.namespace) == nil)

        let uncounted = try TrafficCounters(cgroupRoot: nil, threshold: 1_000, countsLoopback: false)
        #expect(uncounted.hold(cgroupID: key.cgroupID, Holding(paused: true, receiveRate: 1_000, sendRate: 1_000)))
        #expect(ckc_prog_test_run(uncounted.programs[.sent]!, packet, UInt32(packet.count)) == 1)
    }

    /// The held map holds `heldCapacity` cgroups; one more is refused, and nothing else changes.
    @Test func holdsBeyondTheCapacityAreRefused() throws {
        let counters = try TrafficCounters(cgroupRoot: nil, threshold: 1_000, countsLoopback: true)
        let limited = Holding(receiveRate: 5_000)
        for id in 1...UInt64(TrafficCounters.heldCapacity) { #expect(counters.hold(cgroupID: id, limited)) }
        #expect(!counters.hold(cgroupID: UInt64(TrafficCounters.heldCapacity) + 1, limited))
        #expect(counters.hold(cgroupID: 1, Holding(paused: true)), "holding a held app otherwise is no new entry")
        #expect(counters.holding(of: 1) == Holding(paused: true) && counters.holding(of: 2) == limited)
        #expect(counters.hold(cgroupID: 1, Holding()))
        #expect(counters.hold(cgroupID: UInt64(TrafficCounters.heldCapacity) + 1, limited))
    }
}
