// SPDX-License-Identifier: Apache-2.0
import CKernelCounters
import ProgramSupport
#if canImport(Glibc)
import Glibc
#endif

/// Whose bytes a count is, and where they went: the cgroup of the sockets (its cgroup v2 id), the Unix user that
/// owns them, and the network: the interface's index and its network namespace's cookie (0 where the kernel
/// cannot tell namespaces apart).
public struct CounterKey: Sendable, Hashable {
    public var cgroupID: UInt64
    public var user: UInt32
    public var interfaceIndex: UInt32
    public var namespace: UInt64

    public init(cgroupID: UInt64, user: UInt32, interfaceIndex: UInt32 = 0, namespace: UInt64 = 0) {
        self.cgroupID = cgroupID
        self.user = user
        self.interfaceIndex = interfaceIndex
        self.namespace = namespace
    }

    var bytes: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: CounterLayout.keySize)
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: cgroupID, toByteOffset: Int(CounterLayout.cgroupID), as: UInt64.self)
            raw.storeBytes(of: user, toByteOffset: Int(CounterLayout.user), as: UInt32.self)
            raw.storeBytes(of: interfaceIndex, toByteOffset: Int(CounterLayout.interfaceIndex), as: UInt32.self)
            raw.storeBytes(of: namespace, toByteOffset: Int(CounterLayout.namespace), as: UInt64.self)
        }
        return bytes
    }

    init(bytes raw: UnsafeRawBufferPointer) {
        cgroupID = raw.loadUnaligned(fromByteOffset: Int(CounterLayout.cgroupID), as: UInt64.self)
        user = raw.loadUnaligned(fromByteOffset: Int(CounterLayout.user), as: UInt32.self)
        interfaceIndex = raw.loadUnaligned(fromByteOffset: Int(CounterLayout.interfaceIndex), as: UInt32.self)
        namespace = raw.loadUnaligned(fromByteOffset: Int(CounterLayout.namespace), as: UInt64.self)
    }
}

/// An app's bytes on one network, as `TrafficCounters.takeCounts` found them.
public struct TakenCounts: Sendable {
    public var key: CounterKey
    public var counts: ByteCounts
    /// Whether the entry stays in the kernel (the service follows the app), its counts growing on; else the
    /// kernel dropped it as it was read, and a new entry starts from zero.
    public var stays: Bool
}

/// Why the kernel does not count: what is missing, in words for the log and `status`.
public struct TrafficCountingUnavailable: Error, Sendable, CustomStringConvertible {
    public let description: String
    /// What the kernel's verifier said of a program it refused: for the journal alone, since it can name kernel
    /// addresses.
    public let verifierLog: String?

    public init(description: String, verifierLog: String? = nil) {
        self.description = description
        self.verifierLog = verifierLog
    }
}

/// The kernel's per-app byte counts: the counting program (`CountingProgram`) attached at the root of the cgroup
/// v2 tree, for packets received and sent, through BPF links, which the kernel ends with this process, so a
/// service that crashes or is killed leaves no program behind. Programs of other owners (systemd's) stay: links
/// are always one of many programs (`BPF_F_ALLOW_MULTI`).
///
/// Nothing is read while nothing moves: the kernel writes an app's key to a ring buffer (`wakeUpDescriptor`
/// becomes readable) when the app first moves `threshold` bytes within a second; from then on the service reads
/// that app's counts when it likes, until it lets the kernel wake it again (`wakeAgain`).
public final class TrafficCounters {
    /// Apps the kernel keeps counts of at once; the least recently counted make room for new ones.
    public static let capacity: UInt32 = 16_384
    /// The loopback device's index in every network namespace.
    public static let loopbackIndex = UInt32(CountingProgram.loopbackIndex)

    /// Where the programs are attached; nil for programs loaded and not attached (`TrafficKernelTests`).
    public let cgroupRoot: String?
    private let counters: Int32
    /// One value: the ring buffer's flags for a new entry's record (`announcesNewEntries`).
    private let announcing: Int32
    /// The cgroup ids of the apps held back, paused or limited (`hold`).
    let held: Int32
    /// Apps held back at once, at most.
    public static let heldCapacity: UInt32 = 4_096
    /// The interfaces under a data plan (`setPlanAllowance`).
    let plans: Int32
    /// Interfaces under a data plan at once, at most; and metered ones.
    public static let plannedCapacity: UInt32 = 256
    /// The metered interfaces (`setMetered`).
    let metered: Int32
    let wakeUps: WakeUpRing
    private var descriptors: [Int32] = []
    /// The counting programs, by the way they count.
    private(set) var programs: [CountingProgram.Way: Int32] = [:]
    /// The program that clears an app's `followed` mark (`CountingProgram.wakeAgainInstructions`).
    private var wakeAgainProgram: Int32 = -1
    /// The kernel's ids of the two programs (received, sent), as bpftool lists them.
    public private(set) var programIDs: [UInt32] = []
    /// Whether the keys tell network namespaces apart: kernels before Linux 6.x's `bpf_get_netns_cookie` for
    /// cgroup packet programs give every namespace's interfaces the cookie 0.
    public private(set) var tellsNamespaces = true
    /// The cookie of the network namespace the service runs in (`ownNamespace`), read once.
    private let machinesNamespace = TrafficCounters.ownNamespace()

    /// Which programs count.
    public enum Programs: Sendable {
        /// The service's (`CountingProgram.instructions`).
        case service(threshold: UInt64, countsLoopback: Bool)
        /// The smallest counting program, which the benchmark weighs the service's against.
        case reference
    }

    /// Loads and attaches the programs; throws what is missing when the kernel or the privileges do not allow it.
    public convenience init(cgroupRoot: String?, threshold: UInt64, countsLoopback: Bool)
        throws(TrafficCountingUnavailable) {
        try self.init(cgroupRoot: cgroupRoot, programs: .service(threshold: threshold, countsLoopback: countsLoopback))
    }

    public init(cgroupRoot: String?, programs kind: Programs) throws(TrafficCountingUnavailable) {
        self.cgroupRoot = cgroupRoot
        counters = ckc_map_create(BPF_MAP_TYPE_LRU_HASH.rawValue, UInt32(CounterLayout.keySize),
                                  UInt32(CounterLayout.valueSize), Self.capacity, "netact_counts")
        guard counters >= 0 else { throw Self.refusal("a BPF map", errno) }
        announcing = ckc_map_create(BPF_MAP_TYPE_ARRAY.rawValue, 4, 8, 1, "netact_announce")
        held = ckc_map_create(BPF_MAP_TYPE_HASH.rawValue, 8, UInt32(HeldLayout.valueSize), Self.heldCapacity,
                              "netact_held")
        plans = ckc_map_create(BPF_MAP_TYPE_HASH.rawValue, UInt32(PlanLayout.keySize), UInt32(PlanLayout.valueSize),
                               Self.plannedCapacity, "netact_plans")
        metered = ckc_map_create(BPF_MAP_TYPE_HASH.rawValue, UInt32(PlanLayout.keySize), 8, Self.plannedCapacity,
                                 "netact_metered")
        guard announcing >= 0, held >= 0, plans >= 0, metered >= 0 else {
            let error = errno
            for map in [counters, announcing, held, plans, metered] where map >= 0 { close(map) }
            throw Self.refusal("a BPF map", error)
        }
        do {
            wakeUps = try WakeUpRing()
        } catch {
            for map in [counters, announcing, held, plans, metered] { close(map) }
            throw error
        }
        descriptors = [counters, announcing, held, plans, metered]
        let root = cgroupRoot.map { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } ?? -1
        if let cgroupRoot, root < 0 {
            let error = errno
            closeAll()
            throw TrafficCountingUnavailable(description: "cannot open the cgroup v2 tree at \(cgroupRoot): \(Self.words(error))")
        }
        defer { if root >= 0 { close(root) } }
        wakeAgainProgram = try load(CountingProgram.wakeAgainInstructions(counters: counters), named: "netact_rearm",
                                    attachType: BPF_CGROUP_INET_INGRESS)
        for way in [CountingProgram.Way.received, .sent] {
            func instructions(tellingNamespaces: Bool) -> [bpf_insn] {
                switch kind {
                case .service(let threshold, let countsLoopback):
                    CountingProgram.instructions(way, counters: counters, wakeUps: wakeUps.descriptor,
                                                 announcing: announcing, held: held, plans: plans, metered: metered,
                                                 ringSize: wakeUps.size,
                                                 threshold: threshold,
                                                 countsLoopback: countsLoopback, tellsNamespaces: tellingNamespaces)
                case .reference:
                    CountingProgram.referenceInstructions(way, counters: counters, tellsNamespaces: tellingNamespaces)
                }
            }
            let program: Int32
            if tellsNamespaces, let telling = try? loadProgram(instructions(tellingNamespaces: true), named: way.name,
                                                                 attachType: way.attachType) {
                program = telling
            } else {
                tellsNamespaces = false
                program = try load(instructions(tellingNamespaces: false), named: way.name, attachType: way.attachType)
            }
            programs[way] = program
            programIDs.append(ckc_program_info(program).id)
            guard root >= 0 else { continue }
            let link = ckc_link_create(program, root, way.attachType.rawValue)
            guard link >= 0 else {
                let error = errno
                closeAll()
                throw Self.refusal("a program attached to the cgroup tree", error)
            }
            descriptors.append(link)
        }
    }

    deinit {
        closeAll()
    }

    /// Loads a cgroup_skb program, or throws without closing the others (an older kernel may refuse a helper).
    private func loadProgram(_ instructions: [bpf_insn], named name: String, attachType: bpf_attach_type)
        throws(TrafficCountingUnavailable) -> Int32 {
        let program = instructions.withUnsafeBufferPointer { code in
            ckc_prog_load(BPF_PROG_TYPE_CGROUP_SKB.rawValue, attachType.rawValue, code.baseAddress,
                          UInt32(code.count), name, nil, 0)
        }
        guard program >= 0 else { throw Self.refusal("a cgroup packet program", errno) }
        descriptors.append(program)
        return program
    }

    /// Loads a cgroup_skb program; its descriptor is closed with the others.
    private func load(_ instructions: [bpf_insn], named name: String, attachType: bpf_attach_type)
        throws(TrafficCountingUnavailable) -> Int32 {
        var log = [CChar](repeating: 0, count: 65_536)
        let program = instructions.withUnsafeBufferPointer { code in
            ckc_prog_load(BPF_PROG_TYPE_CGROUP_SKB.rawValue, attachType.rawValue, code.baseAddress,
                          UInt32(code.count), name, &log, UInt32(log.count))
        }
        guard program >= 0 else {
            let error = errno
            closeAll()
            let verifier = String(decoding: log.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw verifier.isEmpty || error == EPERM ? Self.refusal("a cgroup packet program", error)
                : TrafficCountingUnavailable(
                    description: "the kernel's verifier refused the counting program (its words are in the service's journal)",
                    verifierLog: verifier)
        }
        descriptors.append(program)
        return program
    }

    /// Runs `program` once on a packet whose data, after the link layer's header, is `data`; returns whether the
    /// kernel ran it.
    @discardableResult
    func run(_ program: Int32, onPacketCarrying data: [UInt8]) -> Bool {
        let frame = [UInt8](repeating: 0, count: Self.linkHeaderSize) + data
        return ckc_prog_test_run(program, frame, UInt32(frame.count)) >= 0
    }

    /// An Ethernet header's size (`ETH_HLEN`), which a test run's packet starts with.
    static let linkHeaderSize = 14

    private func closeAll() {
        for descriptor in descriptors { close(descriptor) }
        descriptors = []
    }

    /// Readable when the kernel has woken the service for an app (`takeWakeUps`).
    public var wakeUpDescriptor: Int32 { wakeUps.descriptor }

    /// The apps the kernel woke the service for since the last call, and why.
    public func takeWakeUps() -> [(key: CounterKey, kind: WakeUpKind)] {
        var keys: [(key: CounterKey, kind: WakeUpKind)] = []
        wakeUps.consume { record in
            guard record.count >= CounterLayout.recordSize,
                  let kind = WakeUpKind(rawValue: record.loadUnaligned(fromByteOffset: Int(CounterLayout.kind),
                                                                        as: UInt64.self))
            else { return }
            keys.append((CounterKey(bytes: record), kind))
        }
        return keys
    }

    /// Whether a new entry's record wakes the service (the default), or waits in the ring for its next read: while
    /// a read of every count is due anyway, a trickle costs no wake-up for each new entry.
    public func announcesNewEntries(wakingTheService wakes: Bool) {
        var key: UInt32 = 0
        var flags = UInt64(wakes ? 0 : BPF_RB_NO_WAKEUP)
        ckc_map_element(Int32(BPF_MAP_UPDATE_ELEM.rawValue), announcing, &key, &flags, 0)
    }

    /// Every app's counts on every network, each entry read and dropped in one step (the kernel makes a new one,
    /// and wakes the service, at the app's next packet there), but for the apps the kernel marks followed, which
    /// stay and are read. So the kernel holds only what moved since the last call, and nothing is read while
    /// nothing moves.
    public func takeCounts() -> [TakenCounts] {
        var keys: [[UInt8]] = []
        var key: [UInt8]? = nil
        var next = [UInt8](repeating: 0, count: CounterLayout.keySize)
        while true {
            let found = key.map { ckc_map_element(Int32(BPF_MAP_GET_NEXT_KEY.rawValue), counters, $0, &next, 0) }
                ?? ckc_map_element(Int32(BPF_MAP_GET_NEXT_KEY.rawValue), counters, nil, &next, 0)
            guard found == 0, keys.count < Int(Self.capacity) else { break }
            keys.append(next)
            key = next
        }
        var taken: [TakenCounts] = []
        var value = [UInt8](repeating: 0, count: CounterLayout.valueSize)
        for key in keys {
            guard ckc_map_element(Int32(BPF_MAP_LOOKUP_ELEM.rawValue), counters, key, &value, 0) == 0 else { continue }
            var stays = Self.field(CounterLayout.followed, of: value) != 0
            if !stays {
                if ckc_map_element(Int32(BPF_MAP_LOOKUP_AND_DELETE_ELEM.rawValue), counters, key, &value, 0) != 0 {
                    // Linux before 5.14 cannot do both at once: what lands between the two is lost.
                    guard ckc_map_element(Int32(BPF_MAP_LOOKUP_ELEM.rawValue), counters, key, &value, 0) == 0 else { continue }
                    ckc_map_element(Int32(BPF_MAP_DELETE_ELEM.rawValue), counters, key, nil, 0)
                }
                stays = false
            }
            let counterKey = key.withUnsafeBytes { CounterKey(bytes: $0) }
            let counts = ByteCounts(received: Self.field(CounterLayout.received, of: value),
                                    sent: Self.field(CounterLayout.sent, of: value))
            taken.append(TakenCounts(key: counterKey, counts: counts, stays: stays))
        }
        return taken
    }

    private static func field(_ offset: Int16, of value: [UInt8]) -> UInt64 {
        value.withUnsafeBytes { $0.load(fromByteOffset: Int(offset), as: UInt64.self) }
    }

    /// Whether a key's network namespace is the one this process runs in, the machine's: where the sockets' uid
    /// in a key is the machine's word (`TrafficVisibility.user`). Where the keys cannot tell namespaces apart it is
    /// every key's, as the kernel cannot say otherwise.
    public func isMachinesNetwork(_ namespace: UInt64) -> Bool {
        !tellsNamespaces || namespace == machinesNamespace
    }

    /// The cookie of the network namespace this process runs in (`SO_NETNS_COOKIE`, Linux 5.14): the namespace
    /// whose interfaces the service can name. Nil where the kernel cannot tell it.
    public static func ownNamespace() -> UInt64? {
        let probe = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return nil }
        defer { close(probe) }
        var cookie: UInt64 = 0
        var size = socklen_t(MemoryLayout<UInt64>.size)
        // SO_NETNS_COOKIE, which Glibc's module may not name.
        return getsockopt(probe, SOL_SOCKET, 71, &cookie, &size) == 0 ? cookie : nil
    }

    /// An app's counts so far; nil when the kernel has none (it never moved anything, or was made room for).
    public func counts(of key: CounterKey) -> ByteCounts? {
        lookUp(key.bytes).map { value in
            value.withUnsafeBytes { raw in
                ByteCounts(received: raw.load(fromByteOffset: Int(CounterLayout.received), as: UInt64.self),
                           sent: raw.load(fromByteOffset: Int(CounterLayout.sent), as: UInt64.self))
            }
        }
    }

    /// Lets the kernel wake the service again when the app next passes the threshold: the kernel clears the
    /// app's mark (`CountingProgram.wakeAgainInstructions`), so the counts that other CPUs add meanwhile stay.
    public func wakeAgain(for key: CounterKey) {
        run(wakeAgainProgram, onPacketCarrying: key.bytes)
    }

    /// How often the kernel ran the counting programs, and for how long in all, since it was asked to keep count
    /// (`sysctl kernel.bpf_stats_enabled=1`): what the benchmark divides.
    public func runStatistics() -> (runs: UInt64, nanoseconds: UInt64) {
        programs.values.map(ckc_program_info).reduce((0, 0)) { sum, info in
            (sum.runs + info.run_cnt, sum.nanoseconds + info.run_time_ns)
        }
    }

    /// Whether the kernel marks the app followed (it wakes the service no more for it).
    func isFollowed(_ key: CounterKey) -> Bool {
        lookUp(key.bytes).map { value in
            value.withUnsafeBytes { $0.load(fromByteOffset: Int(CounterLayout.followed), as: UInt64.self) != 0 }
        } ?? false
    }

    /// The counters map's value for a key, as its bytes; nil when it has none.
    private func lookUp(_ key: [UInt8]) -> [UInt8]? {
        var value = [UInt8](repeating: 0, count: CounterLayout.valueSize)
        return ckc_map_element(Int32(BPF_MAP_LOOKUP_ELEM.rawValue), counters, key, &value, 0) == 0 ? value : nil
    }

    private static func refusal(_ what: String, _ error: Int32) -> TrafficCountingUnavailable {
        switch error {
        case EPERM, EACCES:
            TrafficCountingUnavailable(description: "the kernel refused \(what): \(words(error)); counting needs CAP_BPF and CAP_NET_ADMIN\(lacking())")
        case EINVAL, ENOSYS, EOPNOTSUPP:
            TrafficCountingUnavailable(description: "the kernel does not support \(what) (\(words(error))); counting needs Linux 5.8 or later with BPF")
        default:
            TrafficCountingUnavailable(description: "the kernel refused \(what): \(words(error))")
        }
    }

    /// The capabilities the kernel asks for counting, by their numbers in linux/capability.h.
    static let neededCapabilities: [(name: String, number: Int)] = [("CAP_BPF", 39), ("CAP_NET_ADMIN", 12)]

    /// ", and this process lacks …" naming the needed capabilities that the process's effective set lacks
    /// (`CapEff` in /proc/self/status); empty when it lacks none or cannot tell.
    static func lacking() -> String {
        guard let status = readSmallTextFile(atPath: "/proc/self/status", maxBytes: 1 << 16),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
              let effective = UInt64(line.dropFirst("CapEff:".count).drop(while: \.isWhitespace), radix: 16)
        else { return "" }
        let missing = neededCapabilities.filter { effective & (1 << UInt64($0.number)) == 0 }.map(\.name)
        return missing.isEmpty ? "" : ", and this process lacks " + missing.joined(separator: " and ")
    }

    static func words(_ error: Int32) -> String {
        String(cString: strerror(error))
    }
}
