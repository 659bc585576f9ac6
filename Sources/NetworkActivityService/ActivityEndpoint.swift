import DBusKit
import ProgramSupport
import NetworkActivity
import NetworkActivityInterface

/// The service's object at `ServiceNames.objectPath`: the domain's coordinator behind the interface that
/// `ServiceInterface.swift` declares, and the change signals it sends.
///
/// It meets the bus only through what it is given: the served object's `send`, and a way to ask the Unix user
/// behind a caller. So `NetworkActivityService` serves it on a connection, and the tests serve it in memory.
final class ActivityEndpoint {
    var coordinator: ActivityCoordinator
    let logger: Logger
    /// The Unix user the service runs as.
    let ownUser: UInt32
    /// The object that serves the interface, which sends the replies and signals.
    private(set) var object: ServedObject!
    private let lookUpUnixUser: (BusName) -> UInt32?
    /// Unix users of the callers that have used timed activities; unique names are never reused, so an entry
    /// holds until its name leaves the bus.
    private var unixUsers: [String: UInt32] = [:]
    /// The system service's activities as `ListActivities` shows them here, their owners marked `system:`.
    private(set) var systemActivities: [ActivityRecord] = []
    /// Each distinct change signal, built once and sent as copies.
    private var changeSignals = SignalCache<ActivityNotification>()

    /// - Parameters:
    ///   - send: where the object's replies and signals go: the connection, or a test's list.
    ///   - lookUpUnixUser: the bus's answer to `GetConnectionUnixUser`, nil when it has none.
    init(coordinator: ActivityCoordinator, logger: Logger, ownUser: UInt32, send: @escaping (Message) -> Void,
         lookUpUnixUser: @escaping (BusName) -> UInt32?) {
        self.coordinator = coordinator
        self.logger = logger
        self.ownUser = ownUser
        self.lookUpUnixUser = lookUpUnixUser
        // Signals of a change go out before the reply to the call that caused it, so panels wait behind nothing.
        object = ServedObject(self, at: ServiceNames.objectPath, interfaces: [Self.interface],
                              introspectionXML: Self.introspectionXML, send: send,
                              beforeReply: { $0.publishNotifications() })
    }

    /// Sends the signals of what changed since the last call: `VisibilityChanged` and `PropertiesChanged`.
    func publishNotifications() {
        guard coordinator.hasNotifications else { return }
        for notification in coordinator.takeNotifications() {
            switch notification {
            case .propertiesChanged(let visible, let activeCount):
                object.emit(changeSignals.signal(for: notification) {
                    var changes: [ChangedProperty] = []
                    if let visible { changes.append(ChangedProperty(ServiceNames.Property.visible, visible)) }
                    if let activeCount {
                        changes.append(ChangedProperty(ServiceNames.Property.activeCount, activeCount))
                    }
                    return object.makePropertiesChanged(of: ServiceNames.interface, changes)
                })
            case .visibilityChanged(let visible):
                object.emit(changeSignals.signal(for: notification) {
                    let signal = object.makeSignal(ServiceNames.visibilityChanged, of: ServiceNames.interface)
                    signal.append(visible)
                    return signal
                })
            }
        }
    }

    /// The end of the event loop's turn: announces what the domain coalesced over the turn (a count that changed
    /// while the indicator stayed) and what fell due.
    func endTurn() -> TurnEnd {
        let turn = coordinator.endTurn()
        publishNotifications()
        return turn
    }

    /// Hides the indicator at once and says so: the service is stopping.
    func shutDown() {
        coordinator.shutDown()
        publishNotifications()
    }

    /// A caller's unique name left the bus: its activities end, and what is known of it is forgotten. Returns
    /// how many activities ended.
    func callerLeft(_ name: String) -> Int {
        unixUsers[name] = nil
        let ended = coordinator.callerLeft(name)
        if ended > 0 { publishNotifications() }
        return ended
    }

    /// The system service's activities are now `records` (as its `ListActivities` gave them; none when it is not
    /// running): counted, listed, and announced like this service's own.
    func followSystemActivities(_ records: [ActivityRecord]) {
        systemActivities = records.map { record in
            var marked = record
            marked.owner = ServiceNames.systemOwnerPrefix + record.owner
            return marked
        }
        coordinator.followSystemActivities(Set(records.map { ActivityID(rawValue: $0.id) }))
        publishNotifications()
    }

    /// The Unix user behind a caller, asked of the bus once per caller.
    func unixUser(of caller: String) -> UInt32? {
        if let user = unixUsers[caller] { return user }
        guard let name = try? BusName(caller), let user = lookUpUnixUser(name) else { return nil }
        unixUsers[caller] = user
        return user
    }
}
