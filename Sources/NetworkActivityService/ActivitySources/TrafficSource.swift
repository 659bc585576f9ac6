// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity
import ProgramSupport
import TrafficCounters

/// Reports what apps move on the network as activities of the `traffic` source, for the system service: the
/// kernel's counts (`TrafficCounters`) under the domain's rules (`TrafficWatch`), and keeps the data each app
/// used (`DataUsageKeeper`). It costs nothing while no app moves: the loop sleeps on the kernel's wake-ups,
/// counts are read once a second only while an app is followed, and taken for the totals at most once a minute
/// while anything moves.
///
/// The kernel counts an app per network: an app followed on two at once is one activity, of both networks'
/// figures.
///
/// A paused app's packets are dropped by the kernel (`TrafficCounters.pause`) for as long as its activity shows:
/// the pause is lifted at `Resume`, and when the activity ends, whatever ends it (the app's cgroup emptied or
/// gone, checked at each second's read while it is paused), so that no app is ever left cut off unseen.
final class TrafficSource: SourceAdapter, DataUsageAnswering, TrafficPausing {
    static let bus = FollowedBus.kernel
    static let readsAtEndOfTurn = true
    static let readInterval = Duration.seconds(1)

    private let counters: TrafficCounters
    private var paths: CgroupPaths
    private let choice: TrafficChoice
    private unowned let work: SourceWork
    private let clock: any TimeSource
    private var watch: TrafficWatch<CounterKey>
    /// The app behind each cgroup followed, found once, nil for one that is not shown.
    private var apps: [UInt64: CgroupApplication?] = [:]
    private var nextRead: MonotonicTime?
    /// The figures of each followed network of an app, by the app's item, while it shows.
    private var shown: [TrafficItem: [CounterKey: TrafficFigures]] = [:]
    /// The cgroups whose packets the kernel drops.
    private var paused: Set<UInt64> = []
    /// Apps the kernel woke the service for whose cgroups could not be named yet: followed at the next read.
    private var awaitingOwner: Set<CounterKey> = []
    /// The app behind each activity shown, for `Pause` by the activity's id.
    private var shownActivities: [ActivityID: TrafficItem] = [:]
    let usage: DataUsageKeeper

    /// Attaches the kernel's counting; throws what is missing, in words for people. What the kernel's verifier
    /// said of a refused program, which can name kernel addresses, goes to the journal alone.
    init(connection: Connection, work: SourceWork, configuration: ServiceConfiguration,
         clock: any TimeSource) throws(DBusError) {
        let options = configuration.traffic
        guard let tree = CgroupTree.mounted() else {
            throw DBusError(.failed, "no cgroup v2 tree is mounted (/proc/self/mountinfo names no cgroup2)")
        }
        paths = CgroupPaths(tree: tree)
        do {
            counters = try TrafficCounters(cgroupRoot: tree.root, threshold: options.threshold,
                                           countsLoopback: options.countsLoopback)
        } catch {
            if let verifierLog = error.verifierLog { work.logger.warning("the kernel's verifier said: \(verifierLog)") }
            throw DBusError(.failed, error.description)
        }
        choice = options.choice
        self.work = work
        self.clock = clock
        watch = TrafficWatch(threshold: options.threshold)
        let networks = NetworkNames(connection: connection, ownNamespace: TrafficCounters.ownNamespace(),
                                    logger: work.logger)
        usage = DataUsageKeeper(counters: counters, networks: networks, options: options, logger: work.logger,
                                clock: clock)
        work.logger.info("counting apps' traffic at \(tree.root) (programs \(counters.programIDs.map(String.init).joined(separator: " and ")); from \(options.threshold) bytes a second\(options.countsLoopback ? ", loopback included" : "")\(counters.tellsNamespaces ? "" : "; this kernel does not tell network namespaces apart"))")
    }

    /// What the loop sleeps on: readable when the kernel woke the service for an app.
    var wakeUpDescriptor: Int32? { counters.wakeUpDescriptor }

    func wokeUp() {
        let now = clock.monotonicNow()
        for (key, kind) in counters.takeWakeUps() {
            guard kind == .pastThreshold else {
                usage.entryMade(key, paths: &paths, at: now)
                continue
            }
            usage.moving(at: now)
            follow(key, at: now)
        }
        if watch.isFollowing || !awaitingOwner.isEmpty, nextRead == nil { nextRead = now + Self.readInterval }
    }

    /// Follows an app the kernel woke the service for, within its user's share of the followed apps; its user is
    /// its cgroup's (`TrafficVisibility.user`), so it waits for the next read when the cgroup cannot be named yet.
    private func follow(_ key: CounterKey, at now: MonotonicTime) {
        awaitingOwner.remove(key)
        guard let counts = counters.counts(of: key) else { return }
        guard let user = owner(of: key, at: now) else {
            awaitingOwner.insert(key)
            return
        }
        work.logger.debug("the kernel woke the service for cgroup \(key.cgroupID), user \(user) (the sockets' \(key.user))")
        if !watch.wokeUp(for: key, user: user, counts: counts, at: now) {
            work.logger.debug("user \(user) has \(watch.limitPerUser) apps followed: cgroup \(key.cgroupID) waits")
        }
    }

    /// Whose the traffic under `key` is; nil while its cgroup cannot be named yet (the tree was walked within the
    /// second).
    private func owner(of key: CounterKey, at now: MonotonicTime) -> UInt32? {
        let path: String?
        switch paths.path(of: key.cgroupID, at: now) {
        case .found(let found): path = found
        case .notYet: return nil
        case .gone: path = nil
        }
        return TrafficVisibility.user(ofCgroup: path, socketUser: key.user,
                                      inMachinesNetwork: counters.isMachinesNetwork(key.namespace))
    }

    /// At the end of the loop's turn: reads the followed apps when a second has passed; returns how long until
    /// the next read, nil when none is followed.
    func endOfTurn() -> Duration? {
        let now = clock.monotonicNow()
        // The records that waited in the ring for the take: the apps they name are named first.
        if usage.isTakeDue(at: now) { wokeUp() }
        let usageTurn = usage.endOfTurn(paths: &paths, at: now)
        guard let due = nextRead else { return usageTurn }
        guard now >= due else { return [now.duration(to: due), usageTurn].compactMap { $0 }.min() }
        endPausesOfAppsGone(at: now)
        for key in awaitingOwner { follow(key, at: now) }
        for key in watch.followedKeys { read(key, at: now) }
        for key in watch.takeReleased() { counters.wakeAgain(for: key) }
        nextRead = watch.isFollowing || !awaitingOwner.isEmpty ? now + Self.readInterval : nil
        return [nextRead.map { now.duration(to: $0) }, usageTurn].compactMap { $0 }.min()
    }

    /// Takes the kernel's counts into the totals now, and writes them: before the service stops.
    func takeUsageNow() {
        wokeUp()
        usage.takeNow(paths: &paths, saving: true)
    }

    func clearUsage(for reader: UInt32, serviceUser: UInt32) -> Int {
        wokeUp()
        return usage.clear(for: reader, serviceUser: serviceUser, paths: &paths)
    }

    func usageRows(since: UsageDay?, daily: Bool, readableBy reader: UInt32, serviceUser: UInt32) -> [UsageRow] {
        wokeUp()
        usage.takeNow(paths: &paths, saving: false)
        return usage.usage.rows(since: since, daily: daily, readableBy: reader, serviceUser: serviceUser)
    }

    private func read(_ key: CounterKey, at now: MonotonicTime) {
        let counts = counters.counts(of: key)
        let user = watch.user(of: key) ?? 0
        let item = TrafficItem(cgroupID: key.cgroupID, user: user)
        if watch.isFollowing { usage.moving(at: now) }
        let step = watch.sample(key, counts: counts, at: now)
        work.logger.trace("cgroup \(key.cgroupID), user \(user): \(counts.map { "\($0.received) bytes received, \($0.sent) sent" } ?? "no count"), \(step)")
        switch step {
        case .waits:
            break
        case .shows(let networkFigures):
            guard let app = application(of: key.cgroupID, at: now) else { return }
            shown[item, default: [:]][key] = networkFigures
            show(item, of: app)
        case .letGo:
            shown[item]?[key] = nil
            if shown[item]?.isEmpty ?? true {
                shown[item] = nil
                let wasPaused = liftPause(of: key.cgroupID, ifNoneShows: true)
                end(item, wasPaused ? .paused : .ended)
            }
            counters.wakeAgain(for: key)
            if !watch.followedKeys.contains(where: { $0.cgroupID == key.cgroupID }) { apps[key.cgroupID] = nil }
        }
    }

    /// Reports `item`'s activity with its networks' figures summed; a paused app's rate is 0.
    private func show(_ item: TrafficItem, of app: CgroupApplication) {
        let isPaused = paused.contains(item.cgroupID)
        let figures = shown[item, default: [:]].values.reduce(TrafficFigures(rate: 0, received: 0, sent: 0)) {
            TrafficFigures(rate: $0.rate + $1.rate, received: $0.received + $1.received, sent: $0.sent + $1.sent)
        }
        // Its cgroup: a caller's activity there (`netactivity run --system -- rsync`) takes the rate instead.
        let report = SourceReport(
            label: app.label, owner: app.path, application: app.application, user: item.user,
            rate: isPaused ? 0 : figures.rate, done: figures.done, received: figures.received, sent: figures.sent,
            privateTo: TrafficVisibility.sliceUser(ofCgroup: app.path), cgroup: app.path, isPaused: isPaused)
        do throws(ActivityError) {
            shownActivities[try work.report(report, of: item.description, from: .traffic)] = item
        } catch {
            work.logger.debug("\(app.path)'s traffic shows not: \(error)")
        }
    }

    // MARK: Pausing

    func setPaused(_ pause: Bool, activity id: ActivityID) throws(DBusError) {
        guard let cgroupID = shownActivities[id]?.cgroupID, let app = apps[cgroupID] ?? nil else { return }
        let now = clock.monotonicNow()
        if pause {
            guard !paused.contains(cgroupID) else { return }
            guard counters.pause(cgroupID: cgroupID) else {
                throw DBusError(.limitExceeded, "at most \(TrafficCounters.pausedCapacity) apps may be paused at once")
            }
            paused.insert(cgroupID)
            for key in watch.followedKeys where key.cgroupID == cgroupID { watch.pause(key, at: now) }
        } else {
            guard paused.remove(cgroupID) != nil else { return }
            counters.resume(cgroupID: cgroupID)
            for key in watch.followedKeys where key.cgroupID == cgroupID { watch.resume(key, at: now) }
        }
        work.logger.info("\(pause ? "paused" : "resumed") the network of \(app.path)")
        for shownItem in shown.keys where shownItem.cgroupID == cgroupID { show(shownItem, of: app) }
    }

    /// Lifts the pause of the apps whose cgroups emptied or went away: their activities end, `paused`.
    private func endPausesOfAppsGone(at now: MonotonicTime) {
        for cgroupID in paused {
            guard let app = apps[cgroupID] ?? nil, !paths.tree.holdsProcesses(cgroupID, at: app.path) else { continue }
            work.logger.info("\(app.path) went away while paused: its pause is lifted")
            _ = liftPause(of: cgroupID, ifNoneShows: false)
            for key in watch.followedKeys where key.cgroupID == cgroupID {
                watch.stopFollowing(key)
                counters.wakeAgain(for: key)
            }
            for item in shown.keys where item.cgroupID == cgroupID {
                shown[item] = nil
                end(item, .paused)
            }
            apps[cgroupID] = nil
        }
    }

    private func end(_ item: TrafficItem, _ way: ActivityOutcome) {
        shownActivities = shownActivities.filter { $0.value != item }
        work.endWork(item.description, from: .traffic, way)
    }

    /// Lets the kernel pass the cgroup's packets again, when it was paused (and, with `ifNoneShows`, no activity
    /// of it shows any more); returns whether it was.
    private func liftPause(of cgroupID: UInt64, ifNoneShows: Bool) -> Bool {
        guard paused.contains(cgroupID) else { return false }
        if ifNoneShows, shown.keys.contains(where: { $0.cgroupID == cgroupID }) { return false }
        paused.remove(cgroupID)
        counters.resume(cgroupID: cgroupID)
        return true
    }

    private func application(of cgroupID: UInt64, at now: MonotonicTime) -> CgroupApplication? {
        if let known = apps[cgroupID] { return known }
        let found: CgroupApplication?
        switch paths.path(of: cgroupID, at: now) {
        case .notYet: return nil
        case .gone: found = nil
        case .found(let path):
            found = CgroupApplication(path: path, tree: paths.tree).flatMap { choice.shows($0.application) ? $0 : nil }
        }
        apps[cgroupID] = found
        return found
    }
}

/// One app's measured traffic as a piece of the `traffic` source's work (`SourceWork` names it by its
/// `description`): its cgroup, and whose it is (`TrafficVisibility.user`).
struct TrafficItem: Hashable, CustomStringConvertible {
    let cgroupID: UInt64
    let user: UInt32

    var description: String { "\(cgroupID):\(user)" }
}

/// The app that a cgroup holds, by the desktops' convention for its unit's name (`CallerApplication`); for a
/// terminal's scope, the command running there; else the unit's own name (`apt-daily.service`).
struct CgroupApplication {
    /// From the cgroup tree's root.
    let path: String
    let application: String
    let label: ActivityLabel

    /// The scopes that terminals start a command in: GNOME's (VTE) and tmux's.
    static let terminalScopePrefixes = ["vte-spawn-", "tmux-spawn-"]

    /// Nil for the tree's root, which holds no app.
    init?(path: String, tree: CgroupTree) {
        guard let unit = path.split(separator: "/").last else { return nil }
        self.path = path
        if let id = CallerApplication.desktopID(ofUnit: unit) {
            application = id
            label = ActivityLabel(sanitizing: DesktopApplications.installed.application(id)?.name ?? id)
            return
        }
        if Self.terminalScopePrefixes.contains(where: { unit.hasPrefix($0) }),
           let command = tree.firstProcess(in: path).flatMap(CallerApplication.command(of:)) {
            application = command
        } else {
            guard CallerApplication.isPrintable(String(unit)) else { return nil }
            application = String(unit)
        }
        label = ActivityLabel(sanitizing: application)
    }
}
