// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity
import NetworkActivityInterface

/// Where apps' packets are held back: the system service's kernel programs (`TrafficSource`).
protocol TrafficPausing: AnyObject {
    /// Holds back (`paused`) or lets through the packets of the app whose measured traffic is activity `id` of
    /// the `traffic` source; throws when the kernel refuses.
    func setPaused(_ paused: Bool, activity id: ActivityID) throws(DBusError)
}

/// The system service's object at `ServiceNames.pausePath`: `Pause` and `Resume` of an app's measured traffic,
/// by its activity's id, which its slice's user and root may pause (`AccessRules.mayPause`); to anyone else the
/// activity is unknown, as to those who may not see it. A session serves the same interface through
/// `SystemServiceRelay`.
final class PauseEndpoint {
    private(set) var object: ServedObject!
    /// The activities the ids name, whose changes go out before the reply.
    private unowned let activities: ActivityEndpoint
    /// Nil where the service counts no traffic.
    weak var pausing: (any TrafficPausing)?
    private let notCounting: () -> DBusError

    init(activities: ActivityEndpoint, send: @escaping (Message) -> Void, notCounting: @escaping () -> DBusError) {
        self.activities = activities
        self.notCounting = notCounting
        // The activity's change (paused, its rate 0) goes out before the reply, as the activities' own do.
        object = ServedObject(self, at: ServiceNames.pausePath, interfaces: [Self.interface],
                              introspectionXML: Self.introspectionXML, send: send,
                              beforeReply: { endpoint in endpoint.activities.publishNotifications() })
    }

    var callers: CallerDirectory { activities.callers }

    func setPaused(_ paused: Bool, id: ActivityID, caller: String) throws(DBusError) {
        let unknown = ActivityError.unknownActivity(id).dbusError
        let coordinator = activities.coordinator
        if coordinator.tracker[id] != nil { throw ActivityError.notPausable(id).dbusError }
        guard let activity = coordinator.sourceActivity(id) else { throw unknown }
        let user = callers.unixUser(of: caller)
        let privateTo = activity.report.privateTo
        guard AccessRules.maySee(privateTo: privateTo, reader: user, serviceUser: activities.ownUser) else {
            throw unknown
        }
        guard activity.report.pausing != .notPausable else { throw ActivityError.notPausable(id).dbusError }
        guard let pausing else { throw notCounting() }
        guard AccessRules.mayPause(privateTo: privateTo, caller: user) else { throw unknown }
        try pausing.setPaused(paused, activity: id)
    }
}
