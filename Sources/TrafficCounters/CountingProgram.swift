// SPDX-License-Identifier: Apache-2.0
import CKernelCounters

/// The program the kernel runs on every packet that a socket of the machine receives or sends (one copy for each
/// way): it adds the packet's length to its app's count on its network, keyed by the socket's cgroup and owner
/// and the packet's interface and network namespace; it wakes the service when an app first moves `threshold`
/// bytes within a second on a network, and when it makes an entry (an app moved something on a network since the
/// service last took its counts), so that the service knows to keep the totals without reading while nothing
/// moves. It holds an app back when the held map names its cgroup (`TrafficCounters.hold`): drops every packet
/// of a paused app, and a limited app's past its rate (`holdBack`), uncounted, as a rule for metered networks
/// says on one; on a network under a data plan, it
/// drops every app's packets past the plan's allowance but an exempted one's (`keepToPlan`); loopback is never
/// held back; every other packet passes (it returns 1, or 3 to tell a sending socket of congestion).
///
/// A packet of an app the service follows costs three map lookups (whether its cgroup is held, whether its network
/// is under a plan, its counts), one store, one atomic add and one load (and one more add under a plan); a
/// limited app's, the clock, a division and one atomic add more; of any other app, a few loads more, and the
/// clock only when the app has moved `threshold` bytes since its window began (a window that began more than a
/// second before starts again then, so a slow app never wakes the service). Only the
/// program marks an app followed, once the ring buffer took its key, and only `wakeAgainInstructions` clears the
/// mark: user space never writes a value that CPUs add to.
///
/// `Tests/Cases/counting-program-*.txt` lists the instructions as pseudo-C (`BPFListing`); `CountingProgramTests`
/// checks the encoding against it, and `TrafficKernelTests` that the kernel's verifier accepts them.
///
/// Written as instructions, as systemd writes its `IPAccounting=` program (src/core/bpf-firewall.c), rather than
/// built with clang and loaded with libbpf: it is about 100 instructions, the service stays one static binary with no
/// object file to find and no libbpf or libelf to link, and the build needs no clang. The verifier checks it at
/// every load, and `TrafficTests` load it into the running kernel.
enum CountingProgram {
    /// Which count a copy of the program adds to.
    enum Way {
        case received
        case sent

        var attachType: bpf_attach_type { self == .received ? BPF_CGROUP_INET_INGRESS : BPF_CGROUP_INET_EGRESS }
        var name: String { self == .received ? "netact_received" : "netact_sent" }
        var countOffset: Int16 { self == .received ? CounterLayout.received : CounterLayout.sent }
        var limitOffset: Int16 { self == .received ? HeldLayout.received : HeldLayout.sent }
    }

    /// The fields of the packet (`struct __sk_buff`) the program reads.
    enum Packet {
        static let length = Int16(MemoryLayout<__sk_buff>.offset(of: \.len)!)
        static let interfaceIndex = Int16(MemoryLayout<__sk_buff>.offset(of: \.ifindex)!)
    }

    /// Linux gives the loopback device the index 1 in every network namespace (`LOOPBACK_IFINDEX`).
    static let loopbackIndex: Int32 = 1

    /// - Parameter announcing: the array map whose one value is the ring buffer's flags for a new entry's record
    ///   (`TrafficCounters.announcesNewEntries`): 0 wakes the service, `BPF_RB_NO_WAKEUP` leaves the record for
    ///   its next read, while a read is due anyway.
    ///   A record left for later wakes the service all the same once the ring holds `ringSize / 2` bytes unread,
    ///   so that the service learns of thousands of new entries, and reads them before the map has to evict any.
    /// - Parameter held: the hash map whose keys are the cgroup ids of the apps held back, paused or limited
    ///   (`HeldLayout`, `TrafficCounters.hold`).
    /// - Parameter plans: the hash map whose keys are the networks under a data plan, by interface and network
    ///   namespace (`PlanLayout`, `TrafficCounters.setPlanAllowance`).
    /// - Parameter metered: the hash map whose keys are the networks that are metered, keyed as the plans map
    ///   (`TrafficCounters.setMetered`).
    static func instructions(_ way: Way, counters: Int32, wakeUps: Int32, announcing: Int32, held: Int32,
                             plans: Int32, metered: Int32, ringSize: Int, threshold: UInt64, countsLoopback: Bool,
                             tellsNamespaces: Bool = true) -> [bpf_insn] {
        let key = -Int16(CounterLayout.recordSize)
        var program = BPFProgramBuilder()
        program.move(.r6, .r1)  // r6: the packet
        if way == .sent { program.store(.doubleWord, 1, to: .frame, verdict) }
        if !countsLoopback {
            program.load(.word, .r2, from: .r6, Packet.interfaceIndex)
            program.jump(if: .r2, .equal, loopbackIndex, to: "pass")
        }
        program.load(.word, .r7, from: .r6, Packet.length)  // r7: its length
        program.store(.doubleWord, 0, to: .frame, exemption)
        storeCgroupID(&program, key: key)
        storeOwnerAndNetwork(&program, key: key, tellsNamespaces: tellsNamespaces)
        // A held app's entry: its cgroup's id is the key's first field, the held map's key. Loopback is never held.
        if countsLoopback {
            program.load(.word, .r2, from: .r6, Packet.interfaceIndex)
            program.jump(if: .r2, .equal, loopbackIndex, to: "not held")
        }
        lookUp(&program, counters: held, key: key)
        program.jump(if: .r0, .equal, 0, to: "not held")
        holdBack(&program, way, metered: metered, wakeUps: wakeUps, key: key)
        program.label("not held")
        lookUpOrMakeCounts(&program, counters: counters, key: key,
                           announcingNewTo: (wakeUps, announcing, Int32(ringSize / 2)), noRoom: "uncounted")
        program.label("uncounted")
        program.move(.r8, .r0)  // r8: the app's counts; 0 when the map has no room for them
        // After the entry is made: an app that starts on a used-up network is still announced, so that a rule
        // which exempts it finds it. Counted or not, the packet is kept to the plan.
        if countsLoopback {
            program.load(.word, .r2, from: .r6, Packet.interfaceIndex)
            program.jump(if: .r2, .equal, loopbackIndex, to: "within plan")
        }
        keepToPlan(&program, plans: plans, wakeUps: wakeUps, key: key)
        program.jump(if: .r8, .equal, 0, to: "pass")
        program.atomicAdd(.r7, to: .r8, way.countOffset)
        // Followed by the service: nothing more to do, which keeps a busy app's packets cheap.
        program.load(.doubleWord, .r1, from: .r8, CounterLayout.followed)
        program.jump(if: .r1, .notEqual, 0, to: "pass")

        // Bytes both ways since the current window began; below the threshold, nothing more to do either.
        program.load(.doubleWord, .r6, from: .r8, CounterLayout.received)
        program.load(.doubleWord, .r1, from: .r8, CounterLayout.sent)
        program.add(.r6, .r1)  // r6: the app's bytes so far
        program.load(.doubleWord, .r1, from: .r8, CounterLayout.windowStartBytes)
        program.move(.r2, .r6)
        program.subtract(.r2, .r1)
        program.load64(.r3, threshold)
        program.jump(if: .r2, .below, .r3, to: "pass")

        // The threshold within a second of the window's start: wake the service once, with the key. Later than
        // that (or the first time): a new window begins now, from here.
        program.call(BPF_FUNC_ktime_get_ns)
        program.load(.doubleWord, .r1, from: .r8, CounterLayout.windowStart)
        program.move(.r2, .r0)
        program.subtract(.r2, .r1)
        program.jump(if: .r2, .below, 1_000_000_000, to: "wake")
        program.store(.doubleWord, .r0, to: .r8, CounterLayout.windowStart)
        program.store(.doubleWord, .r6, to: .r8, CounterLayout.windowStartBytes)
        program.jump(to: "pass")

        // Marked followed only once the ring took the key: when it is full, the app stays wakeable, and the next
        // packet past the threshold tries again. Always a wake-up, even behind records left for a later read.
        program.label("wake")
        program.move(.r9, Int32(BPF_RB_FORCE_WAKEUP))
        output(&program, .pastThreshold, wakeUps: wakeUps, record: key, flags: .r9)
        program.jump(if: .r0, .notEqual, 0, to: "pass")
        program.store(.doubleWord, 1, to: .r8, CounterLayout.followed)

        program.label("pass")
        if way == .sent {
            program.load(.doubleWord, .r0, from: .frame, verdict)
        } else {
            program.move(.r0, 1)
        }
        program.exit()
        return program.finished()
    }

    /// Where the sending program keeps its verdict while it counts: 1 passes the packet, 3 passes it and tells
    /// its socket of congestion (TCP then sends slower, as at an ECN mark), below the counts' zeros
    /// (`lookUpOrMakeCounts`).
    static let verdict = -Int16(CounterLayout.recordSize + CounterLayout.valueSize + 8)

    /// Where the program keeps, from the held map, whether the app passes a used-up plan (`keepToPlan`): 0 for an
    /// app that is not held.
    static let exemption = verdict - 8

    /// With the held app's value in r0: a paused app's packet dropped uncounted, and on a metered network (the
    /// metered map names the key's interface) an app paused there; a limited app's passed while its
    /// way's queue, kept as the time its bytes so far may have left at its rate, reaches no further than the
    /// horizon ahead of now, else dropped (and, sent, its socket told of congestion, so that TCP sends slower
    /// rather than waiting for a loss). One packet always passes an empty queue, whatever its size (a 64 KiB
    /// segment at 100 kB/s is 0.65 s of the rate). On a metered network the rate is the app's metered one, or its
    /// own where that is slower. To `not held` for a way without a limit. Only an app with a rule for metered
    /// networks looks its network up.
    ///
    /// Lock-free: the queue's end grows by an atomic add, and a queue that emptied starts again at now by a plain
    /// store, which may lose a packet's add on another CPU at that moment (a packet more, once in a while).
    private static func holdBack(_ program: inout BPFProgramBuilder, _ way: Way, metered: Int32, wakeUps: Int32,
                                 key: Int16) {
        let limit = way.limitOffset
        program.move(.r8, .r0)  // r8: the held value
        program.load(.doubleWord, .r1, from: .r8, HeldLayout.exemptFromPlans)
        program.store(.doubleWord, .r1, to: .frame, exemption)
        program.load(.doubleWord, .r1, from: .r8, HeldLayout.paused)
        program.jump(if: .r1, .notEqual, 0, to: "paused")
        program.load(.doubleWord, .r1, from: .r8, HeldLayout.pausedOnMetered)
        program.load(.doubleWord, .r2, from: .r8, HeldLayout.meteredRate)
        program.add(.r1, .r2)
        program.jump(if: .r1, .equal, 0, to: "own rate")
        program.loadMap(.r1, descriptor: metered)
        program.move(.r2, .frame)
        program.add(.r2, Int32(key + CounterLayout.interfaceIndex))
        program.call(BPF_FUNC_map_lookup_elem)
        program.jump(if: .r0, .equal, 0, to: "own rate")
        program.load(.doubleWord, .r1, from: .r8, HeldLayout.pausedOnMetered)
        program.jump(if: .r1, .notEqual, 0, to: "paused")
        program.load(.doubleWord, .r9, from: .r8, HeldLayout.meteredRate)  // r9: bytes a second
        program.load(.doubleWord, .r1, from: .r8, limit + HeldLayout.rate)
        program.jump(if: .r1, .equal, 0, to: "paced")
        program.jump(if: .r1, .atLeast, .r9, to: "paced")
        program.move(.r9, .r1)
        program.jump(to: "paced")
        program.label("own rate")
        program.load(.doubleWord, .r9, from: .r8, limit + HeldLayout.rate)  // r9: bytes a second
        program.jump(if: .r9, .equal, 0, to: "not held")
        program.label("paced")
        program.call(BPF_FUNC_ktime_get_ns)
        program.load(.doubleWord, .r1, from: .r8, limit + HeldLayout.queueEnd)
        program.jump(if: .r1, .atLeast, .r0, to: "queued")
        program.store(.doubleWord, .r0, to: .r8, limit + HeldLayout.queueEnd)
        program.move(.r1, .r0)
        program.label("queued")
        program.subtract(.r1, .r0)  // r1: how far ahead of now the queue ends
        program.load(.doubleWord, .r2, from: .r8, limit + HeldLayout.horizon)
        program.jump(if: .r2, .below, .r1, to: "over")
        program.move(.r2, .r7)
        program.multiply(.r2, 1_000_000_000)
        program.divide(.r2, .r9)  // r2: the packet's time at the rate
        program.atomicAdd(.r2, to: .r8, limit + HeldLayout.queueEnd)
        if way == .sent {
            program.load(.doubleWord, .r2, from: .r8, limit + HeldLayout.congestion)
            program.jump(if: .r1, .below, .r2, to: "not held")
            program.store(.doubleWord, 3, to: .frame, verdict)
        }
        program.jump(to: "not held")
        program.label("over")
        tellHeldBack(&program, wakeUps: wakeUps, key: key, label: "over")
        program.move(.r0, way == .sent ? 2 : 0)
        program.exit()
        program.label("paused")
        tellHeldBack(&program, wakeUps: wakeUps, key: key, label: "paused")
        program.move(.r0, 0)
        program.exit()
    }

    /// With the held app's value in r8: wakes the service (`WakeUpKind.heldBack`) when it last did more than a
    /// second ago, so that an app a rule holds back shows even below the threshold, at the cost of a ring record
    /// a second while its packets are dropped. Two CPUs at once may both tell.
    private static func tellHeldBack(_ program: inout BPFProgramBuilder, wakeUps: Int32, key: Int16, label: String) {
        program.call(BPF_FUNC_ktime_get_ns)
        program.load(.doubleWord, .r1, from: .r8, HeldLayout.toldAt)
        program.move(.r2, .r0)
        program.subtract(.r2, .r1)
        program.jump(if: .r2, .below, 1_000_000_000, to: "\(label), told")
        program.store(.doubleWord, .r0, to: .r8, HeldLayout.toldAt)
        program.move(.r9, Int32(BPF_RB_FORCE_WAKEUP))
        output(&program, .heldBack, wakeUps: wakeUps, record: key, flags: .r9)
        program.label("\(label), told")
    }

    /// The program that lets the kernel wake the service again for an app: it clears the app's `followed` mark,
    /// and writes nothing else, so no byte that another CPU adds meanwhile is lost. The service runs it with the
    /// key as a packet's data (`BPF_PROG_TEST_RUN`), since user space can write a map value only whole.
    static func wakeAgainInstructions(counters: Int32) -> [bpf_insn] {
        let key = -Int16(CounterLayout.keySize)
        var program = BPFProgramBuilder()
        // The key: the packet's first bytes, after the link layer's header.
        program.move(.r2, 0)
        program.move(.r3, .frame)
        program.add(.r3, Int32(key))
        program.move(.r4, Int32(CounterLayout.keySize))
        program.call(BPF_FUNC_skb_load_bytes)
        program.jump(if: .r0, .notEqual, 0, to: "done")
        lookUp(&program, counters: counters, key: key)
        program.jump(if: .r0, .equal, 0, to: "done")
        program.store(.doubleWord, 0, to: .r0, CounterLayout.followed)
        program.label("done")
        program.move(.r0, 1)
        program.exit()
        return program.finished()
    }

    /// The smallest counting program, what the benchmark weighs ours against: the same key and map, one lookup (a
    /// new app's entry made as ours makes it) and one atomic add a packet, as systemd counts a unit's bytes
    /// (`IPAccounting=`). Nothing wakes anyone, and loopback counts.
    static func referenceInstructions(_ way: Way, counters: Int32, tellsNamespaces: Bool = true) -> [bpf_insn] {
        var program = BPFProgramBuilder()
        program.move(.r6, .r1)
        program.load(.word, .r7, from: .r6, Packet.length)
        storeCgroupID(&program, key: -Int16(CounterLayout.recordSize))
        storeOwnerAndNetwork(&program, key: -Int16(CounterLayout.recordSize), tellsNamespaces: tellsNamespaces)
        lookUpOrMakeCounts(&program, counters: counters, key: -Int16(CounterLayout.recordSize), announcingNewTo: nil)
        program.atomicAdd(.r7, to: .r0, way.countOffset)
        program.label("pass")
        program.move(.r0, 1)
        program.exit()
        return program.finished()
    }

    /// The key's first field: the cgroup v2 id of the packet in r6's socket.
    private static func storeCgroupID(_ program: inout BPFProgramBuilder, key: Int16) {
        program.move(.r1, .r6)
        program.call(BPF_FUNC_skb_cgroup_id)
        program.store(.doubleWord, .r0, to: .frame, key + CounterLayout.cgroupID)
    }

    /// The key's other fields: the uid of the packet in r6's socket's owner, the packet's interface and its
    /// network namespace's cookie (0 where the kernel cannot tell).
    private static func storeOwnerAndNetwork(_ program: inout BPFProgramBuilder, key: Int16, tellsNamespaces: Bool) {
        program.move(.r1, .r6)
        program.call(BPF_FUNC_get_socket_uid)
        program.store(.word, .r0, to: .frame, key + CounterLayout.user)
        program.load(.word, .r1, from: .r6, Packet.interfaceIndex)
        program.store(.word, .r1, to: .frame, key + CounterLayout.interfaceIndex)
        if tellsNamespaces {
            program.move(.r1, .r6)
            program.call(BPF_FUNC_get_netns_cookie)
            program.store(.doubleWord, .r0, to: .frame, key + CounterLayout.namespace)
        } else {
            program.store(.doubleWord, 0, to: .frame, key + CounterLayout.namespace)
        }
    }

    /// On a network under a data plan, the packet of r7's length passes while the plan's allowance holds it, and
    /// takes it from the allowance; past it, it is dropped (`PlanLayout`), the service told of the app (its
    /// counts in r8) unless it follows it already, but an exempted app's (`exemption`),
    /// which passes and takes it all the same, so that the allowance stays what the totals say. The packet that
    /// takes the allowance below the plan's next level wakes the service, so that people are told at once, not at
    /// the minute's take. Lock-free: CPUs that take the last bytes at once may leave the allowance a few packets
    /// below zero, and every packet after them is dropped; two that cross a level at once both wake the service.
    private static func keepToPlan(_ program: inout BPFProgramBuilder, plans: Int32, wakeUps: Int32, key: Int16) {
        program.loadMap(.r1, descriptor: plans)
        program.move(.r2, .frame)
        program.add(.r2, Int32(key + CounterLayout.interfaceIndex))
        program.call(BPF_FUNC_map_lookup_elem)
        program.jump(if: .r0, .equal, 0, to: "within plan")
        program.load(.doubleWord, .r1, from: .r0, PlanLayout.allowance)  // r1: the allowance before the packet
        program.jump(if: .r1, .signedAtLeast, .r7, to: "take from plan")
        program.load(.doubleWord, .r2, from: .frame, exemption)
        program.jump(if: .r2, .notEqual, 0, to: "take from plan")
        // Dropped: the service is told once, as the app's first second past the threshold is, so that it shows.
        program.jump(if: .r8, .equal, 0, to: "past plan")
        program.load(.doubleWord, .r1, from: .r8, CounterLayout.followed)
        program.jump(if: .r1, .notEqual, 0, to: "past plan")
        program.move(.r9, Int32(BPF_RB_FORCE_WAKEUP))
        output(&program, .heldBack, wakeUps: wakeUps, record: key, flags: .r9)
        program.jump(if: .r0, .notEqual, 0, to: "past plan")
        program.store(.doubleWord, 1, to: .r8, CounterLayout.followed)
        program.label("past plan")
        program.move(.r0, 0)
        program.exit()
        program.label("take from plan")
        program.move(.r2, 0)
        program.subtract(.r2, .r7)
        program.atomicAdd(.r2, to: .r0, PlanLayout.allowance)
        program.load(.doubleWord, .r3, from: .r0, PlanLayout.wakeBelow)
        program.jump(if: .r1, .signedBelow, .r3, to: "within plan")
        program.subtract(.r1, .r7)
        program.jump(if: .r1, .signedAtLeast, .r3, to: "within plan")
        program.move(.r9, Int32(BPF_RB_FORCE_WAKEUP))
        output(&program, .planLevel, wakeUps: wakeUps, record: key, flags: .r9)
        program.label("within plan")
    }

    /// `r0 = the counts of the packet in r6's app on its network`, an entry seen for the first time given zeros
    /// (another CPU may have made it first) and, with `wakeUps`, announced to the service with the flags the
    /// `announcing` map holds; to `noRoom` (with r0 0) if the map has no room. The record (the key: the socket's
    /// cgroup v2 id, its owner's uid, the packet's interface and its network namespace's cookie, stored before;
    /// then the record's kind) stays on the stack at `key`.
    private static func lookUpOrMakeCounts(_ program: inout BPFProgramBuilder, counters: Int32, key: Int16,
                                           announcingNewTo maps: (wakeUps: Int32, flags: Int32, halfRing: Int32)?,
                                           noRoom: String = "pass") {
        let zeroCounts = key - Int16(CounterLayout.valueSize)
        lookUp(&program, counters: counters, key: key)
        program.jump(if: .r0, .notEqual, 0, to: "count")
        for offset in stride(from: Int16(0), to: Int16(CounterLayout.valueSize), by: 8) {
            program.store(.doubleWord, 0, to: .frame, zeroCounts + offset)
        }
        program.loadMap(.r1, descriptor: counters)
        program.move(.r2, .frame)
        program.add(.r2, Int32(key))
        program.move(.r3, .frame)
        program.add(.r3, Int32(zeroCounts))
        program.move(.r4, Int32(BPF_NOEXIST))
        program.call(BPF_FUNC_map_update_elem)
        program.move(.r9, .r0)  // r9: 0 when this packet made the entry
        lookUp(&program, counters: counters, key: key)
        program.jump(if: .r0, .equal, 0, to: noRoom)
        if let maps {
            program.jump(if: .r9, .notEqual, 0, to: "count")
            program.move(.r8, .r0)
            // r9: the flags, the array's one value (key 0, in the record's kind until the kind is written).
            program.store(.word, 0, to: .frame, key + CounterLayout.kind)
            program.loadMap(.r1, descriptor: maps.flags)
            program.move(.r2, .frame)
            program.add(.r2, Int32(key + CounterLayout.kind))
            program.call(BPF_FUNC_map_lookup_elem)
            program.move(.r9, 0)
            program.jump(if: .r0, .equal, 0, to: "announce")
            program.load(.doubleWord, .r9, from: .r0, 0)
            // Left for later, but the ring half full of records nobody read: wake the service after all.
            program.jump(if: .r9, .equal, 0, to: "announce")
            program.loadMap(.r1, descriptor: maps.wakeUps)
            program.move(.r2, Int32(BPF_RB_AVAIL_DATA))
            program.call(BPF_FUNC_ringbuf_query)
            program.jump(if: .r0, .below, maps.halfRing, to: "announce")
            program.move(.r9, Int32(BPF_RB_FORCE_WAKEUP))
            program.label("announce")
            output(&program, .newEntry, wakeUps: maps.wakeUps, record: key, flags: .r9)
            program.move(.r0, .r8)
        }
        program.label("count")
    }

    /// `r0 = bpf_ringbuf_output(wakeUps, the record at record, of kind, flags)`: 0 when the ring took it.
    private static func output(_ program: inout BPFProgramBuilder, _ kind: WakeUpKind, wakeUps: Int32, record: Int16,
                               flags: BPFProgramBuilder.Register) {
        program.store(.doubleWord, Int32(kind.rawValue), to: .frame, record + CounterLayout.kind)
        program.loadMap(.r1, descriptor: wakeUps)
        program.move(.r2, .frame)
        program.add(.r2, Int32(record))
        program.move(.r3, Int32(CounterLayout.recordSize))
        program.move(.r4, flags)
        program.call(BPF_FUNC_ringbuf_output)
    }

    /// `r0 = lookup(map, key on the stack)`
    private static func lookUp(_ program: inout BPFProgramBuilder, counters: Int32, key: Int16) {
        program.loadMap(.r1, descriptor: counters)
        program.move(.r2, .frame)
        program.add(.r2, Int32(key))
        program.call(BPF_FUNC_map_lookup_elem)
    }
}
