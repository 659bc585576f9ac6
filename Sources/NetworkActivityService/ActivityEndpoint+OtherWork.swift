// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity
import NetworkActivityInterface

/// Work that no caller of this service announced: its sources' (`SourceWork`), and in a session the system
/// service's activities. Work that runs where one of this service's own activities runs joins that activity (its
/// rate the activity's) rather than showing as a row of its own.
extension ActivityEndpoint: SourceWork {
    func credentials(of connection: String) -> ConnectionCredentials? {
        callers[connection]?.credentials
    }

    /// Work in the cgroup where one of this service's callers runs its own activity (`netactivity run --system
    /// -- rsync`) joins that activity, its rate the activity's, rather than showing as a row of its own. A paused
    /// app never joins: its row, which says it is paused and offers Resume, stays for as long as the kernel holds
    /// its packets back.
    func report(_ report: SourceReport, of item: SourceWorkItem) throws(ActivityError) -> ActivityID {
        if report.pausing != .paused, let cgroup = report.cgroup, let own = activity(inCgroup: cgroup) {
            coordinator.endSourceWork(item, .ended)
            join(item, to: own, rate: report.rate)
            return own
        }
        join(item, to: nil, rate: nil)
        return try coordinator.report(report, of: item)
    }

    func endWork(_ item: SourceWorkItem, _ way: ActivityOutcome) {
        coordinator.endSourceWork(item, way)
        join(item, to: nil, rate: nil)
    }

    func endWork(of source: ActivitySource, _ way: ActivityOutcome, matching: (SourceWorkItem) -> Bool) {
        coordinator.endSourceWork(of: source, way, matching: matching)
        for item in joined.keys where item.source == source && matching(item) { join(item, to: nil, rate: nil) }
    }

    /// `item`'s work now joins `activity` with `rate` (nil activity: it joins none any more).
    private func join(_ item: SourceWorkItem, to activity: ActivityID?, rate: UInt64?) {
        let before = joined[item]
        guard before?.activity != activity || before?.rate != rate else { return }
        joined[item] = activity.map { ($0, rate) }
        coordinator.measuredRatesChanged(Set([before?.activity, activity].compactMap { $0 }))
    }
}

extension ActivityEndpoint {
    /// The system service's activities are now `records` (as its `GetActivities` gave them; none when it is not
    /// running): counted, listed, and announced like this service's own (`SystemServiceRows`).
    func followSystemActivities(_ records: [ActivityDetails]) {
        let changes = system.take(records, user: ownUser, showsTraffic: trafficState == .counting,
                                  choice: trafficChoice, activityInCgroup: activity(inCgroup:))
        coordinator.followSystemActivities(changes.shown, updated: changes.updated)
        coordinator.measuredRatesChanged(changes.measured)
        publishNotifications()
    }

    /// This service's activity, the earliest, whose caller runs in `cgroup` (a path from the cgroup tree's root)
    /// as the user whose traffic it is (`TrafficVisibility.owner`): never another user's app's rate.
    private func activity(inCgroup cgroup: String) -> ActivityID? {
        let owner = TrafficVisibility.owner(ofCgroup: cgroup)
        return coordinator.tracker.all.first { activity in
            callers[activity.owner].map { $0.cgroup == cgroup && $0.credentials.user == owner } ?? false
        }?.id
    }

    /// The rate measured for one of this service's own activities: of the work that joined it.
    func joinedRate(of id: ActivityID) -> UInt64? {
        guard !joined.isEmpty else { return system.measuredRates[id] }
        let rates = joined.values.filter { $0.activity == id }.compactMap(\.rate)
        return rates.isEmpty ? system.measuredRates[id] : rates.reduce(0, +)
    }
}
