// SPDX-License-Identifier: Apache-2.0
import CKernelCounters

/// The program the kernel runs on every packet that a socket of the machine receives or sends (one copy for each
/// way): it adds the packet's length to its app's count, keyed by the socket's cgroup and owner, and wakes the
/// service when an app first moves `threshold` bytes within a second. It never drops a packet: it returns 1
/// whatever happens.
///
/// Written as instructions, as systemd writes its `IPAccounting=` program (src/core/bpf-firewall.c), rather than
/// built with clang and loaded with libbpf: it is 50 instructions, the service stays one static binary with no
/// object file to find and no libbpf or libelf to link, and the build needs no clang. The verifier checks it at
/// every load, and `TrafficCountingTests` load it into the running kernel.
enum CountingProgram {
    /// Which count a copy of the program adds to.
    enum Way {
        case received
        case sent

        var attachType: bpf_attach_type { self == .received ? BPF_CGROUP_INET_INGRESS : BPF_CGROUP_INET_EGRESS }
        var name: String { self == .received ? "netact_received" : "netact_sent" }
        var countOffset: Int16 { self == .received ? CounterLayout.received : CounterLayout.sent }
    }

    /// Linux gives the loopback device the index 1 in every network namespace (`LOOPBACK_IFINDEX`).
    static let loopbackIndex: Int32 = 1

    static func instructions(_ way: Way, counters: Int32, wakeUps: Int32, threshold: UInt64,
                             countsLoopback: Bool) -> [bpf_insn] {
        typealias R = BPFProgramBuilder.Register
        let key = -Int16(CounterLayout.keySize), zeroCounts = key - Int16(CounterLayout.valueSize)
        var program = BPFProgramBuilder()
        program.move(.r6, .r1)  // r6: the packet
        if !countsLoopback {
            program.load(.word, .r2, from: .r6, CKC_SKB_IFINDEX)
            program.jump(if: .r2, .equal, loopbackIndex, to: "pass")
        }
        program.load(.word, .r7, from: .r6, CKC_SKB_LEN)  // r7: its length

        // The key, on the stack: the socket's cgroup v2 id and its owner's uid.
        program.move(.r1, .r6)
        program.call(CKC_FUNC_SKB_CGROUP_ID)
        program.store(.doubleWord, .r0, to: .frame, key + CounterLayout.cgroupID)
        program.move(.r1, .r6)
        program.call(CKC_FUNC_GET_SOCKET_UID)
        program.store(.word, .r0, to: .frame, key + CounterLayout.user)
        program.store(.word, 0, to: .frame, key + CounterLayout.user + 4)

        // Its counts; an app seen for the first time gets zeros (another CPU may have made them first).
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
        program.call(CKC_FUNC_MAP_UPDATE_ELEM)
        lookUp(&program, counters: counters, key: key)
        program.jump(if: .r0, .equal, 0, to: "pass")

        program.label("count")
        program.move(.r8, .r0)  // r8: the app's counts
        program.atomicAdd(.r7, to: .r8, way.countOffset)

        // This second's bytes, both ways: a window that began a second ago or more starts again now.
        program.call(CKC_FUNC_KTIME_GET_NS)
        program.load(.doubleWord, .r1, from: .r8, CounterLayout.windowStart)
        program.move(.r2, .r0)
        program.subtract(.r2, .r1)
        program.jump(if: .r2, .below, 1_000_000_000, to: "same window")
        program.store(.doubleWord, .r0, to: .r8, CounterLayout.windowStart)
        program.store(.doubleWord, 0, to: .r8, CounterLayout.windowBytes)
        program.label("same window")
        program.atomicAdd(.r7, to: .r8, CounterLayout.windowBytes)

        // Past the threshold and not yet followed: wake the service once, with the key.
        program.load(.doubleWord, .r1, from: .r8, CounterLayout.windowBytes)
        program.load64(.r2, threshold)
        program.jump(if: .r1, .below, .r2, to: "pass")
        program.load(.doubleWord, .r1, from: .r8, CounterLayout.followed)
        program.jump(if: .r1, .notEqual, 0, to: "pass")
        program.store(.doubleWord, 1, to: .r8, CounterLayout.followed)
        program.loadMap(.r1, descriptor: wakeUps)
        program.move(.r2, .frame)
        program.add(.r2, Int32(key))
        program.move(.r3, Int32(CounterLayout.keySize))
        program.move(.r4, 0)
        program.call(CKC_FUNC_RINGBUF_OUTPUT)

        program.label("pass")
        program.move(.r0, 1)
        program.exit()
        return program.finished()
    }

    /// `r0 = lookup(counters, key on the stack)`
    private static func lookUp(_ program: inout BPFProgramBuilder, counters: Int32, key: Int16) {
        program.loadMap(.r1, descriptor: counters)
        program.move(.r2, .frame)
        program.add(.r2, Int32(key))
        program.call(CKC_FUNC_MAP_LOOKUP_ELEM)
    }
}

/// The counters map's entries, as the program and the service both read them: a key of 16 bytes (the cgroup's
/// id, the socket owner's uid, 4 bytes of padding) and a value of five 64-bit numbers.
enum CounterLayout {
    static let keySize = 16
    static let valueSize = 40
    // In the key.
    static let cgroupID: Int16 = 0
    static let user: Int16 = 8
    // In the value.
    static let received: Int16 = 0
    static let sent: Int16 = 8
    /// When this second's window began, in the kernel's monotonic nanoseconds.
    static let windowStart: Int16 = 16
    /// Bytes both ways since then.
    static let windowBytes: Int16 = 24
    /// 1 while the service follows the app (the kernel wakes it no more for it), 0 when it may be woken.
    static let followed: Int16 = 32
}
