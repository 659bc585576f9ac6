// SPDX-License-Identifier: Apache-2.0
import NetworkActivity
import ProgramSupport
import TrafficCounters

/// The apps the kernel woke the service for, shown as activities of the `traffic` source under the domain's rules
/// (`TrafficWatch`): a peer of `TrafficKernel`. It reads the followed apps' counts once a second while any is
/// followed, and nothing otherwise.
///
/// The kernel counts an app per network: an app followed on two at once is one activity, of both networks'
/// figures. A paused app's row says so for as long as the kernel drops its packets: when its last row ends, the
/// pause is lifted with it, so that no app is ever left cut off unseen.
final class MeasuredApps: TrafficPeer {
    static let readInterval = Duration.seconds(1)

    private unowned let kernel: TrafficKernel
    private unowned let work: SourceWork
    private let choice: TrafficChoice
    private var watch: TrafficWatch<CounterKey>
    /// The app behind each cgroup followed, found once, nil for one that is not shown.
    private var apps: [UInt64: CgroupApplication?] = [:]
    private var nextRead: MonotonicTime?
    /// The figures of each followed network of an app, by the app's item, while it shows.
    private var shown: [TrafficItem: [CounterKey: TrafficFigures]] = [:]
    /// The item behind each activity shown, for `Pause` by the activity's id.
    private var shownActivities: [ActivityID: TrafficItem] = [:]
    /// Apps the kernel woke the service for whose cgroups could not be named yet: followed at the next read.
    private var awaitingOwner: Set<CounterKey> = []

    init(kernel: TrafficKernel, work: SourceWork, threshold: UInt64, choice: TrafficChoice) {
        self.kernel = kernel
        self.work = work
        self.choice = choice
        watch = TrafficWatch(threshold: threshold)
    }

    func kernelWoke(for key: CounterKey, _ kind: WakeUpKind, at now: MonotonicTime) {
        if kind == .pastThreshold { follow(key, at: now) }
    }

    func wakeUpsRead(at now: MonotonicTime) {
        if watch.isFollowing || !awaitingOwner.isEmpty, nextRead == nil { nextRead = now + Self.readInterval }
    }

    /// Follows an app the kernel woke the service for, within its user's share of the followed apps; its user is
    /// its cgroup's, so it waits for the next read when the cgroup cannot be named yet.
    private func follow(_ key: CounterKey, at now: MonotonicTime) {
        awaitingOwner.remove(key)
        guard let counts = kernel.counters.counts(of: key) else { return }
        guard let user = kernel.owner(of: key, at: now) else {
            awaitingOwner.insert(key)
            return
        }
        work.logger.debug("the kernel woke the service for cgroup \(key.cgroupID), user \(user) (the sockets' \(key.user))")
        if !watch.wokeUp(for: key, user: user, counts: counts, at: now) {
            work.logger.debug("user \(user) has \(watch.limitPerUser) apps followed: cgroup \(key.cgroupID) waits")
        }
    }

    /// Reads the followed apps when a second has passed; returns how long until the next read, nil when none is
    /// followed.
    func endOfTurn(at now: MonotonicTime) -> Duration? {
        guard let due = nextRead else { return nil }
        guard now >= due else { return now.duration(to: due) }
        for key in awaitingOwner { follow(key, at: now) }
        for key in watch.followedKeys { read(key, at: now) }
        for key in watch.takeReleased() { kernel.counters.wakeAgain(for: key) }
        kernel.isFollowingApps = watch.isFollowing
        nextRead = watch.isFollowing || !awaitingOwner.isEmpty ? now + Self.readInterval : nil
        return nextRead.map { now.duration(to: $0) }
    }

    private func read(_ key: CounterKey, at now: MonotonicTime) {
        let counts = kernel.counters.counts(of: key)
        let user = watch.user(of: key) ?? 0
        let item = TrafficItem(cgroupID: key.cgroupID, user: user)
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
                // Its last row ends: a pause ends with it, and the row says it ended paused.
                let lastOfCgroup = !shown.keys.contains { $0.cgroupID == key.cgroupID }
                end(item, lastOfCgroup && kernel.resume(key.cgroupID) ? .paused : .ended)
            }
            kernel.counters.wakeAgain(for: key)
            if !watch.followedKeys.contains(where: { $0.cgroupID == key.cgroupID }) { apps[key.cgroupID] = nil }
        }
    }

    /// Reports `item`'s activity with its networks' figures summed; a paused app's rate is 0.
    private func show(_ item: TrafficItem, of app: CgroupApplication) {
        let isPaused = kernel.isPaused(item.cgroupID)
        let figures = shown[item, default: [:]].values.reduce(TrafficFigures(rate: 0, received: 0, sent: 0)) {
            TrafficFigures(rate: $0.rate + $1.rate, received: $0.received + $1.received, sent: $0.sent + $1.sent)
        }
        // Its cgroup: a caller's activity there (`netactivity run --system -- rsync`) takes the rate instead.
        let report = SourceReport(
            label: app.label, owner: app.path, application: app.application, user: item.user,
            rate: isPaused ? 0 : figures.rate, done: figures.done, received: figures.received, sent: figures.sent,
            privateTo: TrafficVisibility.sliceUser(ofCgroup: app.path), cgroup: app.path,
            pausing: isPaused ? .paused : .running, limit: kernel.limit(of: item.cgroupID))
        do throws(ActivityError) {
            shownActivities[try work.report(report, of: .appTraffic(item))] = item
        } catch {
            work.logger.debug("\(app.path)'s traffic shows not: \(error)")
        }
    }

    private func end(_ item: TrafficItem, _ way: ActivityOutcome) {
        shownActivities = shownActivities.filter { $0.value != item }
        work.endWork(.appTraffic(item), way)
    }

    private func application(of cgroupID: UInt64, at now: MonotonicTime) -> CgroupApplication? {
        if let known = apps[cgroupID] { return known }
        let found: CgroupApplication?
        switch kernel.paths.path(of: cgroupID, at: now) {
        case .notYet: return nil
        case .gone: found = nil
        case .found(let path):
            found = CgroupApplication(path: path, tree: kernel.paths.tree).flatMap {
                choice.shows($0.application) ? $0 : nil
            }
        }
        apps[cgroupID] = found
        return found
    }

    // MARK: What the pausing asks

    /// The app shown as activity `id`, with its cgroup; nil for an id that is no app's measured traffic here.
    func app(shownAs id: ActivityID) -> (cgroupID: UInt64, app: CgroupApplication)? {
        guard let cgroupID = shownActivities[id]?.cgroupID, let app = apps[cgroupID] ?? nil else { return nil }
        return (cgroupID, app)
    }

    /// The kernel now drops (`paused`) or passes the cgroup's packets: its rows say so, and its rates start over.
    func pauseChanged(of cgroupID: UInt64, paused: Bool, at now: MonotonicTime) {
        for key in watch.followedKeys where key.cgroupID == cgroupID {
            if paused { watch.pause(key, at: now) } else { watch.resume(key, at: now) }
        }
        guard let app = apps[cgroupID] ?? nil else { return }
        for item in shown.keys where item.cgroupID == cgroupID { show(item, of: app) }
    }

    /// A rule now holds the cgroup to another limit, or to none: its rows say so.
    func limitChanged(of cgroupID: UInt64) {
        guard let app = apps[cgroupID] ?? nil else { return }
        for item in shown.keys where item.cgroupID == cgroupID { show(item, of: app) }
    }

    /// Whether the cgroup of a shown app emptied or went away (its app exited).
    func hasGone(_ cgroupID: UInt64) -> Bool {
        guard let app = apps[cgroupID] ?? nil else { return false }
        return !kernel.paths.tree.holdsProcesses(cgroupID, at: app.path)
    }

    /// Ends every row of a cgroup that went away, `way`, and stops following it.
    func endRows(of cgroupID: UInt64, _ way: ActivityOutcome) {
        for key in watch.followedKeys where key.cgroupID == cgroupID {
            watch.stopFollowing(key)
            kernel.counters.wakeAgain(for: key)
        }
        for item in shown.keys where item.cgroupID == cgroupID {
            shown[item] = nil
            end(item, way)
        }
        apps[cgroupID] = nil
    }

    /// The path of a shown app's cgroup, for the journal.
    func path(of cgroupID: UInt64) -> String? {
        (apps[cgroupID] ?? nil)?.path
    }
}
