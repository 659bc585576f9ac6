// SPDX-License-Identifier: Apache-2.0
import NetworkActivity
import ProgramSupport
import TrafficCounters

/// The kernel's side of apps' traffic, owned once for the system service: the counting programs and their maps
/// (`TrafficCounters`), the cgroup tree's names (`CgroupPaths`), the networks' (`NetworkNames`) and the held map (paused and limited apps).
/// The wing's peers (`TrafficPeer`: the measured apps, the data usage, the pausing) are registered in one list and
/// told, in its order, of every wake-up the kernel sends and of every turn's end.
final class TrafficKernel {
    let counters: TrafficCounters
    var paths: CgroupPaths
    let networks: NetworkNames
    let logger: Logger
    let clock: any TimeSource
    /// Whether apps are followed (their entries stay in the kernel): set by the measured apps at each read.
    var isFollowingApps = false
    /// Whether the kernel is to wake the service for every new entry at once, even while a take is due: while
    /// rules hold apps back (`AppLimits`), a new instance is held from its first packets.
    var newEntriesMustWake = false {
        didSet { tellNewEntriesWake() }
    }
    /// Whether the data usage wants to know of a new entry at once: not while a take is due anyway
    /// (`DataUsageKeeper`).
    var newEntriesWakeForUsage = true {
        didSet { tellNewEntriesWake() }
    }
    /// Whether the kernel wakes the service for a new entry, as last told.
    private var newEntriesWake = true
    /// The cgroups whose packets the kernel drops.
    private(set) var pausedCgroups: Set<UInt64> = []
    /// The cgroups whose packets the kernel keeps to a limit.
    private(set) var limitedCgroups: [UInt64: AppLimit] = [:]
    private var peers: [any TrafficPeer] = []

    init(counters: TrafficCounters, paths: CgroupPaths, networks: NetworkNames, logger: Logger,
         clock: any TimeSource) {
        self.counters = counters
        self.paths = paths
        self.networks = networks
        self.logger = logger
        self.clock = clock
    }

    /// Tells the kernel whether to wake the service for a new entry, when either side changed its mind.
    private func tellNewEntriesWake() {
        let wakes = newEntriesWakeForUsage || newEntriesMustWake
        guard wakes != newEntriesWake else { return }
        newEntriesWake = wakes
        counters.announcesNewEntries(wakingTheService: wakes)
    }

    /// Adds a peer to the list: it is told of what the kernel says after those added before it.
    func register(_ peer: any TrafficPeer) {
        peers.append(peer)
    }

    /// Reads what the kernel woke the service for and tells every peer: when the kernel's descriptor is
    /// readable, and before anything that must see the kernel's latest (a take of its counts).
    func readWakeUps() {
        let now = clock.monotonicNow()
        for (key, kind) in counters.takeWakeUps() {
            for peer in peers { peer.kernelWoke(for: key, kind, at: now) }
        }
        for peer in peers { peer.wakeUpsRead(at: now) }
    }

    /// Each peer's end of the turn, in the list's order, the kernel's wake-ups read first when one of them wants
    /// them (a take is due: the records that waited in the ring for it name their apps first); how long until
    /// the first wants the next, nil for never.
    func endOfTurn() -> Duration? {
        let now = clock.monotonicNow()
        if peers.contains(where: { $0.wantsWakeUpsReadFirst(at: now) }) { readWakeUps() }
        return peers.compactMap { $0.endOfTurn(at: now) }.min()
    }

    /// Whose the traffic under `key` is (`TrafficVisibility.user`); nil while its cgroup cannot be named yet
    /// (the tree was walked within the second).
    func owner(of key: CounterKey, at now: MonotonicTime) -> UInt32? {
        let path: String?
        switch paths.path(of: key.cgroupID, at: now) {
        case .found(let found): path = found
        case .notYet: return nil
        case .gone: path = nil
        }
        return TrafficVisibility.user(ofCgroup: path, socketUser: key.user,
                                      inMachinesNetwork: counters.isMachinesNetwork(key.namespace))
    }

    // MARK: The held map

    func isPaused(_ cgroupID: UInt64) -> Bool {
        pausedCgroups.contains(cgroupID)
    }

    /// Has the kernel drop the cgroup's packets; false when it refused (`TrafficCounters.heldCapacity`).
    func pause(_ cgroupID: UInt64) -> Bool {
        guard !pausedCgroups.contains(cgroupID) else { return true }
        guard counters.hold(cgroupID: cgroupID, holding(of: cgroupID, paused: true)) else { return false }
        pausedCgroups.insert(cgroupID)
        return true
    }

    /// Lets the cgroup's packets through again (but for its limit); returns whether it was paused.
    @discardableResult
    func resume(_ cgroupID: UInt64) -> Bool {
        guard pausedCgroups.remove(cgroupID) != nil else { return false }
        _ = counters.hold(cgroupID: cgroupID, holding(of: cgroupID, paused: false))
        return true
    }

    /// The limit the kernel keeps the cgroup's packets to.
    func limit(of cgroupID: UInt64) -> AppLimit? {
        limitedCgroups[cgroupID]
    }

    /// Keeps the cgroup's packets to `limit` (nil: none) from now on; false when the kernel refused
    /// (`TrafficCounters.heldCapacity`).
    func setLimit(_ limit: AppLimit?, of cgroupID: UInt64) -> Bool {
        guard limitedCgroups[cgroupID] != limit else { return true }
        guard counters.hold(cgroupID: cgroupID, Self.holding(limit, paused: isPaused(cgroupID))) else { return false }
        limitedCgroups[cgroupID] = limit
        return true
    }

    private func holding(of cgroupID: UInt64, paused: Bool) -> Holding {
        Self.holding(limitedCgroups[cgroupID], paused: paused)
    }

    /// What the kernel keeps to: the limit's rates, exemption and rule for metered networks (`.allow` holds
    /// nothing there), and the pause.
    static func holding(_ limit: AppLimit?, paused: Bool) -> Holding {
        var holding = Holding(paused: paused, receiveRate: limit?.down, sendRate: limit?.up,
                              exemptFromPlans: limit?.exemptFromPlans ?? false)
        switch limit?.onMetered {
        case .pause: holding.pausedOnMetered = true
        case .slow(let rate): holding.meteredRate = rate
        case .allow, nil: break
        }
        return holding
    }
}

/// A part of the traffic wing that acts on what the kernel says: registered with `TrafficKernel`, which tells it.
protocol TrafficPeer: AnyObject {
    /// The kernel woke the service for `key`: an entry made (`newEntry`), or an app past the threshold.
    func kernelWoke(for key: CounterKey, _ kind: WakeUpKind, at now: MonotonicTime)
    /// Every wake-up of one read has been told.
    func wakeUpsRead(at now: MonotonicTime)
    /// Whether, at the end of this turn, the kernel's wake-ups are to be read before any peer's end of turn.
    func wantsWakeUpsReadFirst(at now: MonotonicTime) -> Bool
    /// At the end of the loop's turn: returns how long until the peer wants the next, nil for never.
    func endOfTurn(at now: MonotonicTime) -> Duration?
}

extension TrafficPeer {
    func kernelWoke(for key: CounterKey, _ kind: WakeUpKind, at now: MonotonicTime) {}
    func wakeUpsRead(at now: MonotonicTime) {}
    func wantsWakeUpsReadFirst(at now: MonotonicTime) -> Bool { false }
    func endOfTurn(at now: MonotonicTime) -> Duration? { nil }
}
