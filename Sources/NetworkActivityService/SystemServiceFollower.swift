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
final class SystemServiceFollower {
    private let connection: Connection
    private let logger: Logger
    /// Called on the event loop's thread with the system service's activities, none when it is not running.
    private let onChange: ([ActivityRecord]) -> Void
    /// The system service's unique name, "" while it is not running.
    private var owner = ""
    private var isAsking = false
    private var askAgain = false

    /// Starts following on `connection`, to the system bus.
    init(connection: Connection, logger: Logger, onChange: @escaping ([ActivityRecord]) -> Void) throws(DBusError) {
        self.connection = connection
        self.logger = logger
        self.onChange = onChange
        try connection.followOwner(of: ServiceNames.busName) { [unowned self] newOwner in ownerChanged(to: newOwner) }
        for rule in [ServiceMembers.visibilityChanged.rule(sender: ServiceNames.busName, path: ServiceNames.objectPath),
                     StandardInterface.propertiesChanged.rule(sender: ServiceNames.busName, path: ServiceNames.objectPath)] {
            try connection.subscribe(to: rule) { [unowned self] _ in askForActivities() }
        }
        // Whoever owns the name now; from here on, NameOwnerChanged tells.
        ownerChanged(to: (try? connection.nameOwner(of: ServiceNames.busName)) ?? "")
        if owner.isEmpty { logger.info("following \(ServiceNames.busName) on the system bus; it is not running") }
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
        }
        owner = newOwner
        guard !owner.isEmpty else { return }
        logger.info("following the system service \(owner)")
        askForActivities()
    }

    private func askForActivities() {
        guard let destination = try? BusName(owner) else { return }
        guard !isAsking else {
            askAgain = true
            return
        }
        isAsking = true
        let asked = owner
        let call = ServiceMembers.listActivities.call(destination: destination, path: ServiceNames.objectPath)
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
                if let records = try? ServiceMembers.listActivities.readReply(&reply) { onChange(records) }
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
