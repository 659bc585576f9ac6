// SPDX-License-Identifier: Apache-2.0
import NetworkActivity
import ProgramSupport
import TrafficCounters
#if canImport(Glibc)
import Glibc
#endif

/// Keeps the data each app used (`DataUsage`) from the kernel's counts, for the system service with `--traffic`:
/// it takes the counts (`TrafficCounters.takeCounts`) when the domain's `UsageTakeSchedule` says (at most once a
/// minute while anything moves, at local midnight, and before it answers a question), and writes the totals to
/// `usage` in its directory after each take that changed them. While nothing moves it does nothing: the kernel
/// wakes it (`WakeUpKind.newEntry`) when an app first moves something after a take. While a take is due, the
/// kernel's records of new entries wait in the ring for it, so a trickle costs one wake-up a minute.
final class DataUsageKeeper: TrafficPeer, DataUsageAnswering {
    static let fileName = "usage"

    private(set) var usage: DataUsage
    /// Told once the file holds a change to the totals (after a take that writes it, or a clear): whether rows
    /// everyone may read changed, and whose private rows did. Whoever hears it may rely on the file.
    var onChange: ((_ everyone: Bool, _ users: Set<UInt32>) -> Void)?
    /// What changed since the file was last written, and is still to be told.
    private var untold: (everyone: Bool, users: Set<UInt32>) = (false, [])
    /// Told after every take, with its day: the totals are the kernel's latest (`NetworkPlans`).
    var onTaken: ((_ today: UsageDay) -> Void)?
    private unowned let kernel: TrafficKernel
    private var counters: TrafficCounters { kernel.counters }
    private let directory: String?
    /// `--traffic-loopback`: loopback counts in the totals too (for tests, and a machine whose network is local).
    private let countsLoopback: Bool
    private let logger: Logger
    private let clock: any TimeSource
    /// The apps behind the cgroups that moved something, named when the kernel told of them (a short-lived app is
    /// gone by the next take).
    private var apps: [UInt64: UsageApplication] = [:]
    /// Cgroups the kernel told of that could not be named yet (the tree was walked within the second).
    private var unnamed: Set<UInt64> = []
    /// The counts of entries that stay in the kernel (apps it follows), of which each take adds what moved.
    private var staying = StayingCounts<CounterKey>()
    private var schedule = UsageTakeSchedule(mapCapacity: Int(TrafficCounters.capacity))
    /// Whether the totals changed since the file was last written: a question's take leaves the writing to the
    /// next take, within a minute, so that the answer waits for no file.
    private var unsaved = false
    /// Whether a clear left the totals to be written at the end of the turn.
    private var clearedUnsaved = false
    /// The day old days are dropped against: a wall clock that jumps ahead and back loses no kept day.
    private var trustedToday: TrustedToday

    init(kernel: TrafficKernel, options: TrafficOptions) {
        self.kernel = kernel
        logger = kernel.logger
        clock = kernel.clock
        directory = options.usageDirectory
        countsLoopback = options.countsLoopback
        usage = DataUsage(keptDays: options.usageDays)
        if let directory {
            usage = Self.read(from: directory, keptDays: options.usageDays, logger: kernel.logger) ?? usage
        }
        trustedToday = TrustedToday(newestKept: usage.newestDay, at: kernel.clock.monotonicNow())
    }

    /// The kernel made an entry (an app moved something on a network since the last take), whose cgroup is
    /// named now, while it is likely still there; or an app moves past the threshold. Either way a take is due
    /// within a minute of the last.
    func kernelWoke(for key: CounterKey, _ kind: WakeUpKind, at now: MonotonicTime) {
        switch kind {
        case .newEntry:
            name(key.cgroupID, at: now)
            if schedule.entryMade(at: now, untilMidnight: untilMidnight) {
                logger.info("a quarter of the kernel's map filled within a minute: taking the counts now")
            }
        case .pastThreshold:
            schedule.moving(at: now, untilMidnight: untilMidnight)
        case .planLevel, .heldBack:
            break
        }
        tellNewEntriesWake()
    }

    /// Whether a take is due now: the kernel's records that waited in the ring are to be read first.
    func wantsWakeUpsReadFirst(at now: MonotonicTime) -> Bool {
        schedule.isDue(at: now)
    }

    /// At the end of the loop's turn: takes the counts when due, names what waited; returns how long until the
    /// next time it wants a turn's end, nil for never.
    func endOfTurn(at now: MonotonicTime) -> Duration? {
        // An app followed keeps its entry in the kernel: it moves, so a take is due.
        if kernel.isFollowingApps { schedule.moving(at: now, untilMidnight: untilMidnight) }
        tellNewEntriesWake()
        if !unnamed.isEmpty {
            for cgroup in unnamed { name(cgroup, at: now) }
        }
        if clearedUnsaved {
            clearedUnsaved = false
            if unsaved { save() }
        }
        if schedule.isDue(at: now) { take(at: now, saving: true) }
        let retry = unnamed.isEmpty ? nil : now + CgroupPaths.walkInterval
        guard let next = [schedule.nextTake, retry].compactMap({ $0 }).min() else { return nil }
        return now.duration(to: max(now, next))
    }

    /// Takes the kernel's counts now, what woke the service read first: for a question that must be answered to
    /// the second (the file is written at the saving take, within the minute), or before the service stops
    /// (`saving`).
    func takeNow(saving: Bool) {
        kernel.readWakeUps()
        take(at: clock.monotonicNow(), saving: saving)
    }

    func usageRows(since: UsageDay?, daily: Bool, readableBy reader: UInt32, serviceUser: UInt32) -> [UsageRow] {
        takeNow(saving: false)
        return usage.rows(since: since, daily: daily, readableBy: reader, serviceUser: serviceUser)
    }

    /// Forgets the rows `reader` may clear; returns how many. The file is written at the end of the loop's turn:
    /// the clears of one turn are one write.
    func clearUsage(for reader: UInt32, serviceUser: UInt32) -> Int {
        takeNow(saving: false)
        let cleared = usage.clear(for: reader, serviceUser: serviceUser)
        if cleared > 0 {
            let clearsAll = reader == 0 || reader == serviceUser
            untold.everyone = untold.everyone || clearsAll
            if !clearsAll { untold.users.insert(reader) }
            unsaved = true
            clearedUnsaved = true
        }
        return cleared
    }

    /// Takes what the kernel counted, names what it could not before, and writes the file when `saving`.
    private func take(at now: MonotonicTime, saving: Bool) {
        let wallClock = clock.now().wallClock
        let today = LocalCalendar.day(atWallClock: schedule.dayWallClock(wallClock, at: now))
        var changed = usage.dropOldDays(today: trustedToday.today(wallDay: today, at: now))
        var everyoneChanged = changed
        var usersChanged: Set<UInt32> = []
        var anyStays = false
        var seen: Set<UInt64> = []
        let entries = counters.takeCounts()
        logger.debug("took the kernel's counts: \(entries.count) entries")
        for taken in entries {
            anyStays = anyStays || taken.stays
            let moved = staying.moved(taken.key, counted: taken.counts, stays: taken.stays)
            // Loopback is no network, unless `--traffic-loopback` says it is.
            guard moved.total > 0, countsLoopback || taken.key.interfaceIndex != TrafficCounters.loopbackIndex
            else { continue }
            seen.insert(taken.key.cgroupID)
            if apps[taken.key.cgroupID] == nil { name(taken.key.cgroupID, at: now, lastChance: true) }
            // Whose it is: its slice's user, else the sockets' owner only where the machine's word names it.
            let unsliced = TrafficVisibility.user(ofCgroup: nil, socketUser: taken.key.user,
                                                  inMachinesNetwork: counters.isMachinesNetwork(taken.key.namespace))
            let app = apps[taken.key.cgroupID] ?? UsageApplication(unknownOf: unsliced)
            let network = kernel.networks.network(interfaceIndex: taken.key.interfaceIndex, namespace: taken.key.namespace)
            usage.add(moved, to: UsageEntry(day: today, user: app.privateTo ?? unsliced, privateTo: app.privateTo,
                                            application: app.application, network: network.name,
                                            metered: network.metered),
                      label: app.label)
            changed = true
            if let user = app.privateTo { usersChanged.insert(user) } else { everyoneChanged = true }
        }
        onTaken?(today)
        // Names are kept only for the cgroups that still move, or are followed.
        let followed = Set(staying.keys.map(\.cgroupID))
        apps = apps.filter { seen.contains($0.key) || followed.contains($0.key) || unnamed.contains($0.key) }
        if changed {
            unsaved = true
            untold.everyone = untold.everyone || everyoneChanged
            untold.users.formUnion(usersChanged)
        }
        // Told once written (`save`): a question's take leaves both to the saving take, within the minute.
        if saving, unsaved { save() }
        schedule.taken(at: now, saving: saving, stillMoving: changed || anyStays || unsaved,
                       untilMidnight: LocalCalendar.untilMidnight(atWallClock: wallClock))
        tellNewEntriesWake()
    }

    private var untilMidnight: Duration {
        LocalCalendar.untilMidnight(atWallClock: clock.now().wallClock)
    }

    /// Tells the kernel whether the data usage wants a new entry's wake-up: not while a take is due anyway.
    private func tellNewEntriesWake() {
        kernel.newEntriesWakeForUsage = schedule.newEntriesWake
    }

    private func name(_ cgroup: UInt64, at now: MonotonicTime, lastChance: Bool = false) {
        guard apps[cgroup] == nil else { return }
        switch kernel.paths.path(of: cgroup, at: now) {
        case .found(let path):
            apps[cgroup] = UsageApplication(path: path, tree: kernel.paths.tree)
            unnamed.remove(cgroup)
        case .notYet where !lastChance:
            unnamed.insert(cgroup)
        case .notYet, .gone:
            unnamed.remove(cgroup)
        }
    }

    /// Writes the totals whole and synced (`AtomicFile`): a crash, of the service or the machine, leaves the last
    /// file, at most a minute old. Only a write that succeeded is told (`onChange`); after one that failed, the
    /// totals stay unsaved and the next take, within a minute, tries again.
    private func save() {
        if let directory, !write(to: directory) { return }
        unsaved = false
        let told = untold
        untold = (false, [])
        if told.everyone || !told.users.isEmpty { onChange?(told.everyone, told.users) }
    }

    private func write(to directory: String) -> Bool {
        if mkdir(directory, 0o700) != 0, errno != EEXIST {
            logger.warning("cannot keep the data usage: cannot create \(directory): \(String(cString: strerror(errno)))")
            return false
        }
        do {
            let file = try AtomicFile.replace(directory + "/" + Self.fileName, with: UsageFileFormat.encode(usage),
                                              durable: true)
            close(file)
            return true
        } catch {
            logger.warning("cannot keep the data usage in \(directory): \(error)")
            return false
        }
    }

    /// The totals kept in the directory; nil for none. A file that is there but cannot be read, is empty, too
    /// large to be one the service wrote, or damaged is kept aside as `usage.damaged`, with one warning, and the
    /// totals begin afresh: the next write would replace it.
    private static func read(from directory: String, keptDays: Int, logger: Logger) -> DataUsage? {
        let path = directory + "/" + fileName
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        let maximum = UsageFileFormat.maximumSize(keptDays: keptDays)
        let problem: String?
        var usage: DataUsage?
        if status.st_size == 0 {
            problem = "is empty"
        } else if Int(status.st_size) > maximum {
            problem = "is \(status.st_size) bytes, more than the \(maximum) of \(keptDays) full days"
        } else if let bytes = readSmallFile(atPath: path, maxBytes: maximum) {
            usage = UsageFileFormat.decode(bytes, keptDays: keptDays)
            problem = usage == nil ? "is damaged" : nil
        } else {
            problem = "cannot be read"
        }
        if let problem {
            logger.warning("the data usage in \(path) \(problem); it is kept as \(path).damaged and counted afresh")
            rename(path, path + ".damaged")
            return nil
        }
        guard let usage else { return nil }
        logger.info("keeping the data each app used in \(path) (\(usage.rows.count) rows, \(keptDays) days)")
        return usage
    }
}

/// Who a cgroup's usage is: its app, named as traffic activities are (`CgroupApplication`), and who may read it.
struct UsageApplication {
    var application: String
    var label: String
    var privateTo: UInt32?

    /// The app that stands for sockets of the cgroup tree's root: the kernel's own, or processes left there.
    static let machine = "kernel"
    /// The app that stands for a cgroup gone before it could be named.
    static let unknown = "unknown"

    init(path: String, tree: CgroupTree) {
        privateTo = TrafficVisibility.sliceUser(ofCgroup: path)
        if let app = CgroupApplication(path: path, tree: tree) {
            application = app.application
            label = app.label.text
        } else {
            application = path == "/" ? Self.machine : Self.unknown
            label = application
        }
    }

    /// A cgroup gone unnamed: private to the sockets' owner as far as it can be believed (root where it cannot),
    /// since its slice is not known.
    init(unknownOf user: UInt32) {
        application = Self.unknown
        label = Self.unknown
        privateTo = user
    }
}

/// Local days, as `localtime_r` (and `TZ`) tells them.
enum LocalCalendar {
    static func day(atWallClock microseconds: UInt64) -> UsageDay {
        let fields = localFields(microseconds)
        return UsageDay(year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday))
            ?? UsageDay(daysSinceEpoch: Int(microseconds / 86_400_000_000))
    }

    /// How long until the next local midnight (a day of 23 or 25 hours is met at its next take).
    static func untilMidnight(atWallClock microseconds: UInt64) -> Duration {
        let fields = localFields(microseconds)
        let elapsed = Int64(fields.tm_hour) * 3_600 + Int64(fields.tm_min) * 60 + Int64(fields.tm_sec)
        let fraction = Int64(microseconds % 1_000_000)
        return .microseconds(max(1, (86_400 - elapsed) * 1_000_000 - fraction))
    }

    private static func localFields(_ microseconds: UInt64) -> tm {
        var seconds = time_t(microseconds / 1_000_000)
        var fields = tm()
        localtime_r(&seconds, &fields)
        return fields
    }
}
