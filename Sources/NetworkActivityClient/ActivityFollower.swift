// SPDX-License-Identifier: Apache-2.0
internal import DBusKit
internal import NetworkActivityInterface

/// Follows the service's activities on a connection's loop thread, where the signals and the replies to its reads
/// arrive in the order the service sent them: a signal sent before a read's reply is older than the reply and is
/// dropped; one sent after it is applied to it. Its owner tells it who serves the name (`ownerChanged`) and hands it
/// `ActivitiesChanged` (`apply`); it reads `GetActivities` once per service, and again when asked (`readAgain`).
final class ActivityFollower {
    // The connection holds its handlers, which hold the follower: unowned, not to keep the connection alive.
    private unowned let connection: Connection
    private let onUpdate: (ActivityUpdate) -> Void
    private(set) var activities: [ActivityID: ActivityStatus] = [:]
    private var owner = ""
    /// Set while a read is on its way: signals until its reply are older than it.
    private(set) var isReading = false
    private var hasUpdated = false
    /// Set when the follower's stream has ended: it reads and tells nothing more.
    var isStopped = false

    init(connection: Connection, onUpdate: @escaping (ActivityUpdate) -> Void) {
        self.connection = connection
        self.onUpdate = onUpdate
    }

    /// The service's name has a new owner: `newOwner`, or nobody ("").
    func ownerChanged(to newOwner: String) {
        guard !isStopped, newOwner != owner || !hasUpdated else { return }
        owner = newOwner
        // The service left, or another took its place: what the last one had is gone.
        if !activities.isEmpty || (newOwner.isEmpty && !hasUpdated) {
            let ended = activities.keys.sorted()
            activities = [:]
            update(ActivityUpdate(activities: [], changed: [], ended: ended))
        }
        readAgain()
    }

    /// Reads every activity again; the reply replaces what the follower had.
    func readAgain() {
        guard !isStopped, !owner.isEmpty else { return }
        isReading = true
        let asked = owner
        // The reply holds the follower (which holds its connection unowned) until it comes, rather than a weak
        // reference: a weak reference's side table is kept only by the object's own reference count, which
        // LeakSanitizer cannot read, so a program that exits with the follower alive was reported as leaking it.
        connection.send(ServiceCall.activities.withoutAutoStart()) { [self] result in
            guard !isStopped, asked == owner else { return }
            isReading = false
            guard case .success(let statuses) = result else { return }
            activities = Dictionary(statuses.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
            update(ActivityUpdate(activities: statuses, changed: statuses, ended: []))
        }
    }

    /// Applies `ActivitiesChanged`, unless a read is on its way.
    func apply(_ signal: Message) {
        guard !isStopped, !isReading else { return }
        guard let report = try? ActivityChangeReport(signal) else { return }
        let changed = report.changed.map { ActivityStatus($0) }
        let ended = report.ended.map { ActivityID(rawValue: $0) }
        for id in ended { activities[id] = nil }
        for status in changed { activities[status.id] = status }
        update(ActivityUpdate(activities: activities.values.sorted(by: ActivityStatus.beganBefore), changed: changed, ended: ended))
    }

    private func update(_ update: ActivityUpdate) {
        hasUpdated = true
        onUpdate(update)
    }
}

extension MatchRule {
    /// The service's `ActivitiesChanged`.
    static let activitiesChanged = ServiceMembers.activitiesChanged.rule(sender: ServiceNames.busName,
                                                                         path: ServiceNames.objectPath)

    /// The service's `PropertiesChanged` of its own interface.
    static let servicePropertiesChanged = {
        var rule = StandardInterface.propertiesChanged.rule(sender: ServiceNames.busName, path: ServiceNames.objectPath)
        rule.arguments = [0: ServiceNames.interface.rawValue]
        return rule
    }()
}
