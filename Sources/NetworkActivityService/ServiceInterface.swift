import DBusKit
import NetworkActivity
import NetworkActivityInterface

/// `org.example.NetworkActivity` as `dbus/org.example.NetworkActivity.xml` defines it, served by DBusKit: the
/// methods with their arguments in and out, the properties and the signal. `ServiceContractTests` compares this
/// declaration with the XML.
extension ActivityEndpoint {
    /// The interface XML of `dbus/`, compiled into the program byte for byte: what `Introspect` returns.
    static let introspectionXML = String(decoding: PackageResources.org_example_NetworkActivity_xml, as: UTF8.self)

    static let interface = InterfaceDeclaration<ActivityEndpoint>(
        ServiceNames.interface,
        methods: [
            MethodDeclaration("Begin", inputs: [.init("label", "s")], outputs: [.init("id", "u")]) {
                endpoint, call throws(DBusError) in
                var arguments = call.arguments()
                let label = try arguments.read(String.self)
                let id = try domain { () throws(ActivityError) in
                    try endpoint.coordinator.begin(label: label, caller: call.callerName,
                                                   userOf: endpoint.unixUser(of:))
                }
                return call.makeReturn(with: id.rawValue)
            },
            MethodDeclaration("BeginWithTimeout", inputs: [.init("label", "s"), .init("seconds", "u")],
                              outputs: [.init("id", "u")]) { endpoint, call throws(DBusError) in
                var arguments = call.arguments()
                let label = try arguments.read(String.self)
                let seconds = try arguments.read(UInt32.self)
                guard let user = endpoint.unixUser(of: call.callerName) else {
                    throw DBusError(.failed, "the bus did not tell the Unix user of \(call.callerName)")
                }
                let id = try domain { () throws(ActivityError) in
                    try endpoint.coordinator.beginTimed(label: label, seconds: seconds, caller: call.callerName,
                                                       user: user, userOf: endpoint.unixUser(of:))
                }
                return call.makeReturn(with: id.rawValue)
            },
            MethodDeclaration("End", inputs: [.init("id", "u")]) {
                endpoint, call throws(DBusError) in
                var arguments = call.arguments()
                let id = ActivityID(rawValue: try arguments.read(UInt32.self))
                do throws(ActivityError) {
                    try endpoint.coordinator.end(id, caller: call.callerName) { endpoint.unixUser(of: call.callerName) }
                } catch {
                    throw endpoint.refusedEnd(of: id, by: call.callerName, error)
                }
                return call.makeReturn()
            },
            MethodDeclaration("Cancel", outputs: [.init("count", "u")]) {
                endpoint, call throws(DBusError) in
                let ended = endpoint.coordinator.cancel(caller: call.callerName)
                return call.makeReturn(with: UInt32(ended))
            },
            MethodDeclaration("Reset", outputs: [.init("count", "u")]) {
                endpoint, call throws(DBusError) in
                // The system bus's policy already refuses Reset to everyone but root; this is the second line, for
                // a policy that is missing or wrong. On a session bus every caller is the service's own user.
                guard let user = endpoint.unixUser(of: call.callerName), user == 0 || user == endpoint.ownUser else {
                    throw DBusError(.accessDenied, "only root or the service's own user may reset it")
                }
                let ended = endpoint.coordinator.reset()
                endpoint.logger.notice("\(call.callerName) reset the service, ending \(ended) activities")
                return call.makeReturn(with: UInt32(ended))
            },
            MethodDeclaration("ListActivities", outputs: [.init("activities", [ActivityRecord].dbusSignature)]) {
                endpoint, call throws(DBusError) in
                call.makeReturn(with: endpoint.coordinator.tracker.all.map(ActivityRecord.init)
                    + endpoint.systemActivities)
            },
            MethodDeclaration("SetProgress", inputs: [.init("id", "u"), .init("percent", "u")]) {
                endpoint, call throws(DBusError) in
                var arguments = call.arguments()
                let id = ActivityID(rawValue: try arguments.read(UInt32.self))
                let percent = try arguments.read(UInt32.self)
                try domain { () throws(ActivityError) in
                    try endpoint.coordinator.setProgress(id, percent: percent, caller: call.callerName,
                                                         userOf: endpoint.unixUser(of:))
                }
                return call.makeReturn()
            },
            MethodDeclaration("SetTransfer", inputs: [.init("id", "u"), .init("done", "t"), .init("total", "t")]) {
                endpoint, call throws(DBusError) in
                var arguments = call.arguments()
                let id = ActivityID(rawValue: try arguments.read(UInt32.self))
                let done = try arguments.read(UInt64.self)
                let total = try arguments.read(UInt64.self)
                try domain { () throws(ActivityError) in
                    try endpoint.coordinator.setTransfer(id, done: done, total: total, caller: call.callerName,
                                                         userOf: endpoint.unixUser(of:))
                }
                return call.makeReturn()
            },
            MethodDeclaration("SetCancellable", inputs: [.init("id", "u"), .init("cancellable", "b")]) {
                endpoint, call throws(DBusError) in
                var arguments = call.arguments()
                let id = ActivityID(rawValue: try arguments.read(UInt32.self))
                let cancellable = try arguments.read(Bool.self)
                try domain { () throws(ActivityError) in
                    try endpoint.coordinator.setCancellable(id, cancellable, caller: call.callerName,
                                                            userOf: endpoint.unixUser(of:))
                }
                return call.makeReturn()
            },
            MethodDeclaration("RequestCancel", inputs: [.init("id", "u")]) {
                endpoint, call throws(DBusError) in
                var arguments = call.arguments()
                let id = ActivityID(rawValue: try arguments.read(UInt32.self))
                let receiver = try domain { () throws(ActivityError) in
                    try endpoint.coordinator.requestCancel(id, caller: call.callerName, serviceUser: endpoint.ownUser,
                                                           userOf: endpoint.unixUser(of:))
                }
                endpoint.askToCancel(id, receiver: receiver, askedBy: call.callerName)
                return call.makeReturn()
            },
            MethodDeclaration("GetActivities", outputs: [.init("activities", [ActivityDetails].dbusSignature)]) {
                endpoint, call throws(DBusError) in
                call.makeReturn(with: endpoint.allDetails())
            },
        ],
        properties: [
            PropertyDeclaration(ServiceNames.Property.visible, Bool.self, announcesChanges: true) {
                $0.coordinator.isVisible
            },
            PropertyDeclaration(ServiceNames.Property.activeCount, UInt32.self, announcesChanges: true) {
                $0.coordinator.activeCount
            },
        ],
        signals: [
            SignalDeclaration(ServiceNames.visibilityChanged, arguments: [.init("visible", "b")]),
            SignalDeclaration(ServiceNames.activitiesChanged, arguments: [
                .init("changed", [ActivityDetails].dbusSignature), .init("ended", "au"),
            ]),
            SignalDeclaration(ServiceNames.cancelRequested, arguments: [.init("id", "u")]),
        ]
    )
}

extension ActivityEndpoint {
    /// The error reply to an `End` the domain refused. Apart from the handler, which every `End` runs, so that
    /// its message takes no room there.
    @inline(never)
    func refusedEnd(of id: ActivityID, by caller: String, _ error: ActivityError) -> DBusError {
        if case .unknownActivity = error {
            // An unbalanced End is a bug in the caller, worth a line in its developer's journal.
            logger.warning("\(caller) ended activity \(id), which is not active")
        }
        return error.dbusError
    }
}

/// Runs a domain operation, turning its refusal into the D-Bus error that names it.
private func domain<Result>(_ operation: () throws(ActivityError) -> Result) throws(DBusError) -> Result {
    do {
        return try operation()
    } catch {
        throw dbusError(of: error)
    }
}

/// Apart from the handlers, which every call runs, so that the errors' messages take no room there.
@inline(never)
private func dbusError(of error: ActivityError) -> DBusError {
    error.dbusError
}

extension Message {
    /// The caller's unique bus name; every message a bus delivers has one.
    var callerName: String { sender ?? "" }
}
