// SPDX-License-Identifier: Apache-2.0
import DBusKit
import ProgramSupport
import NetworkActivityInterface

/// Follows the system bus's `org.example.NetworkActivity` for a service on the session bus, so that the user's
/// indicator shows what root's backups and updates do.
///
/// It never starts the system service and never polls: it follows the name's owner, and whenever the system
/// service announces a change (`VisibilityChanged`, `PropertiesChanged`) it asks for its activities, without
/// waiting: a system service that never answers leaves this one free. One question is in flight at a time;
/// changes heard meanwhile ask once more when it is answered. When the system service leaves, its activities
/// leave with it at once.
///
/// With `startsService` (the session's `--traffic`), it asks the bus to start the system service once, so that
/// the kernel counts apps' traffic, and reads whether it does (`Traffic`) each time the service appears.
final class SystemServiceFollower {
    private let connection: Connection
    private let logger: Logger
    /// Called on the event loop's thread with the system service's activities, none when it is not running.
    private let onChange: ([ActivityDetails]) -> Void
    /// Called with the system service's `Traffic` each time it appears, and with nil when it leaves.
    private let onTraffic: (String?) -> Void
    /// The system service's unique name, "" while it is not running.
    private var owner = ""
    private var isAsking = false
    private var askAgain = false
    /// Called with each signal of the interfaces a session passes on (`SystemServiceRelay`), such as
    /// `UsageChanged`, which the system service sends to this connection once it has read `GetUsage`.
    var onRelayedSignal: ((Message) -> Void)?

    /// Starts following on `connection`, to the system bus.
    init(connection: Connection, logger: Logger, startsService: Bool, onTraffic: @escaping (String?) -> Void,
         onChange: @escaping ([ActivityDetails]) -> Void) throws(DBusError) {
        self.connection = connection
        self.logger = logger
        self.onChange = onChange
        self.onTraffic = onTraffic
        try connection.followOwner(of: ServiceNames.busName) { [unowned self] newOwner in ownerChanged(to: newOwner) }
        // ActivitiesChanged too: a measured app's rate changes every second without changing the count.
        for rule in [ServiceMembers.visibilityChanged.rule(sender: ServiceNames.busName, path: ServiceNames.objectPath),
                     ServiceMembers.activitiesChanged.rule(sender: ServiceNames.busName, path: ServiceNames.objectPath),
                     StandardInterface.propertiesChanged.rule(sender: ServiceNames.busName, path: ServiceNames.objectPath)] {
            try connection.subscribe(to: rule) { [unowned self] _ in askForActivities() }
        }
        for rule in SystemServiceRelay.signalRules {
            try connection.subscribe(to: rule) { [unowned self] signal in onRelayedSignal?(signal) }
        }
        // Whoever owns the name now; from here on, NameOwnerChanged tells.
        ownerChanged(to: (try? connection.nameOwner(of: ServiceNames.busName)) ?? "")
        if owner.isEmpty, startsService { startService() }
        if owner.isEmpty { logger.info("following \(ServiceNames.busName) on the system bus; it is not running") }
    }

    /// Asks the bus to start the system service (D-Bus activation), without waiting: it appears to
    /// `followOwner` when it has started.
    private func startService() {
        let call = Connection.startServiceByName.call(ServiceNames.busName.rawValue, UInt32(0),
                                                     destination: Connection.busDriverName, path: Connection.busDriverPath)
        connection.send(call, timeout: .seconds(25)) { [unowned self] result in
            if case .failure(let error) = result {
                logger.warning("the system service could not be started for traffic: \(error.message)")
            }
        }
    }

    /// The connection to the system bus is lost: the system service's activities leave with it.
    func systemBusLost() {
        ownerChanged(to: "")
    }

    private func ownerChanged(to newOwner: String) {
        guard newOwner != owner else { return }
        if !owner.isEmpty {
            logger.info("the system service \(owner) left; its activities leave the count")
            onChange([])
            onTraffic(nil)
        }
        owner = newOwner
        guard !owner.isEmpty else { return }
        logger.info("following the system service \(owner)")
        askForActivities()
        askForTraffic()
    }

    private func askForTraffic() {
        guard let destination = try? BusName(owner) else { return }
        let call = StandardInterface.get.call(ServiceNames.interface.rawValue, ServiceMembers.traffic.name,
                                              destination: destination, path: ServiceNames.objectPath)
        call.autoStart = false
        let asked = owner
        connection.send(call, timeout: .seconds(5)) { [unowned self] result in
            guard asked == owner else { return }
            if case .success(var reply) = result, let value = try? StandardInterface.get.readReply(&reply),
               let text = try? value.decode(String.self) {
                onTraffic(text)
            } else {
                // An older system service, without the property.
                onTraffic(TrafficCounting.unavailable.rawValue)
            }
        }
    }

    private func askForActivities() {
        guard let destination = try? BusName(owner) else { return }
        guard !isAsking else {
            askAgain = true
            return
        }
        isAsking = true
        let asked = owner
        let call = ServiceMembers.getActivities.call(destination: destination, path: ServiceNames.objectPath)
        call.autoStart = false
        connection.send(call, timeout: .seconds(5)) { [unowned self] result in
            isAsking = false
            // An answer from a system service that has left since, or been replaced, tells nothing now.
            guard asked == owner else {
                askForActivities()
                return
            }
            switch result {
            case .success(var reply):
                if let records = try? ServiceMembers.getActivities.readReply(&reply) { onChange(records) }
            case .failure(let error):
                logger.warning("the system service did not list its activities: \(error)")
            }
            if askAgain {
                askAgain = false
                askForActivities()
            }
        }
    }
}

extension SystemServiceFollower {
    /// Passes a call of the session's bus on to the system service whole, as the session's user
    /// (`SystemServiceRelay`); `answer` is called on the loop with its reply. False when it is not running.
    func passOn(_ call: Message, answer: @escaping (Result<Message, DBusError>) -> Void) -> Bool {
        guard let destination = try? BusName(owner) else { return false }
        let passed = call.passedOn(to: destination)
        passed.autoStart = false
        connection.passOn(passed, timeout: .seconds(10), onReply: answer)
        return true
    }
}
