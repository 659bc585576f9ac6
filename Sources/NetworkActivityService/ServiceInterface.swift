// SPDX-License-Identifier: Apache-2.0
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
            MethodDeclaration(ServiceMembers.begin) { endpoint, call, label throws(DBusError) in
                // Who the caller is, asked while it is on the bus, for the history of what it may leave behind.
                if endpoint.coordinator.keepsFinished { _ = endpoint.callers[call.callerName] }
                return try domain { () throws(ActivityError) in
                    try endpoint.coordinator.begin(label: label, caller: call.callerName,
                                                   userOf: endpoint.callers.unixUser(of:)).rawValue
                }
            },
            MethodDeclaration(ServiceMembers.beginWithTimeout) { endpoint, call, label, seconds throws(DBusError) in
                let user = try endpoint.knownUser(of: call.callerName)
                return try domain { () throws(ActivityError) in
                    try endpoint.coordinator.beginTimed(label: label, seconds: seconds, caller: call.callerName,
                                                       user: user, userOf: endpoint.callers.unixUser(of:)).rawValue
                }
            },
            MethodDeclaration(ServiceMembers.end) { endpoint, call, rawID throws(DBusError) in
                let id = ActivityID(rawValue: rawID)
                do throws(ActivityError) {
                    try endpoint.coordinator.end(id, caller: call.callerName) { endpoint.callers.unixUser(of: call.callerName) }
                } catch {
                    throw endpoint.refusedEnd(of: id, by: call.callerName, error)
                }
                return NoValue()
            },
            MethodDeclaration(ServiceMembers.cancel) { endpoint, call throws(DBusError) in
                UInt32(endpoint.coordinator.cancel(caller: call.callerName))
            },
            MethodDeclaration(ServiceMembers.reset) { endpoint, call throws(DBusError) in
                try endpoint.refuseIfSandboxed(call.callerName, .reset)
                guard AccessRules.mayReset(callerUser: endpoint.callers.unixUser(of: call.callerName),
                                           serviceUser: endpoint.ownUser) else {
                    throw DBusError(.accessDenied, "only root or the service's own user may reset it")
                }
                let ended = endpoint.coordinator.reset()
                endpoint.logger.notice("\(call.callerName) reset the service, ending \(ended) activities")
                return UInt32(ended)
            },
            MethodDeclaration(ServiceMembers.listActivities) { endpoint, call throws(DBusError) in
                if endpoint.isSandboxed(call.callerName) {
                    return endpoint.ownDetails(of: call.callerName).map(ActivityRecord.init)
                }
                endpoint.noteReader(call.callerName)
                return endpoint.allRecords(readBy: call.callerName)
            },
            MethodDeclaration(ServiceMembers.setProgress) { endpoint, call, id, percent throws(DBusError) in
                try domain { () throws(ActivityError) in
                    try endpoint.coordinator.setProgress(ActivityID(rawValue: id), percent: percent,
                                                         caller: call.callerName, userOf: endpoint.callers.unixUser(of:))
                }
                return NoValue()
            },
            MethodDeclaration(ServiceMembers.setTransfer) { endpoint, call, id, done, total throws(DBusError) in
                try domain { () throws(ActivityError) in
                    try endpoint.coordinator.setTransfer(ActivityID(rawValue: id), done: done, total: total,
                                                         caller: call.callerName, userOf: endpoint.callers.unixUser(of:))
                }
                return NoValue()
            },
            MethodDeclaration(ServiceMembers.setCancellable) { endpoint, call, id, cancellable throws(DBusError) in
                try domain { () throws(ActivityError) in
                    try endpoint.coordinator.setCancellable(ActivityID(rawValue: id), cancellable,
                                                            caller: call.callerName, userOf: endpoint.callers.unixUser(of:))
                }
                return NoValue()
            },
            MethodDeclaration(ServiceMembers.requestCancel) { endpoint, call, rawID throws(DBusError) in
                let id = ActivityID(rawValue: rawID)
                if endpoint.coordinator.tracker[id]?.owner != call.callerName {
                    try endpoint.refuseIfSandboxed(call.callerName, .stopAnother)
                }
                let receiver = try domain { () throws(ActivityError) in
                    try endpoint.coordinator.requestCancel(id, caller: call.callerName, serviceUser: endpoint.ownUser,
                                                           userOf: endpoint.callers.unixUser(of:))
                }
                endpoint.askToCancel(id, receiver: receiver, caller: call.callerName)
                return NoValue()
            },
            MethodDeclaration(ServiceMembers.getActivities) { endpoint, call throws(DBusError) in
                if endpoint.isSandboxed(call.callerName) { return endpoint.ownDetails(of: call.callerName) }
                endpoint.noteReader(call.callerName)
                return endpoint.allDetails(readBy: call.callerName)
            },
            MethodDeclaration(ServiceMembers.getHistory) { endpoint, call, max throws(DBusError) in
                try endpoint.refuseIfSandboxed(call.callerName, .readHistory)
                endpoint.noteReader(call.callerName)
                return try endpoint.historyEntries(for: call.callerName, max: max)
            },
            MethodDeclaration(ServiceMembers.clearHistory) { endpoint, call throws(DBusError) in
                try endpoint.refuseIfSandboxed(call.callerName, .clearHistory)
                return try endpoint.clearHistory(for: call.callerName)
            },
        ],
        properties: [
            PropertyDeclaration(ServiceMembers.visible, announcesChanges: true) { $0.coordinator.isVisible },
            PropertyDeclaration(ServiceMembers.activeCount, announcesChanges: true) { $0.coordinator.activeCount },
            PropertyDeclaration(ServiceMembers.traffic, announcesChanges: false) { $0.trafficState.word.rawValue },
            PropertyDeclaration(ServiceMembers.trafficReason, announcesChanges: false) { $0.trafficState.reason },
        ],
        signals: [
            SignalDeclaration(ServiceMembers.visibilityChanged),
            SignalDeclaration(ServiceMembers.activitiesChanged),
            SignalDeclaration(ServiceMembers.cancelRequested),
            SignalDeclaration(ServiceMembers.historyChanged),
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
