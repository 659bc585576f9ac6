// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity
import NetworkActivityInterface

/// Where apps' limits are kept and held: the system service's rules (`AppLimits`).
protocol SpeedLimiting: AnyObject {
    func limits(of user: UInt32) -> [(application: String, limit: AppLimit)]
    /// Changes `user`'s rule for an app, each way given (0: none) and its exemption from plans if given; throws
    /// what was refused, and changes nothing then.
    func changeLimit(of application: String, user: UInt32, _ change: LimitChange) throws(DBusError)
    func removeLimit(of application: String, user: UInt32) throws(DBusError)
    func saverIsOn(for user: UInt32) -> Bool
    func setSaver(_ on: Bool, for user: UInt32) throws(DBusError)
}

/// The system service's object at `ServiceNames.limitsPath`: each caller's own speed limits, by app id, which
/// hold that caller's apps (root's: the machine's services). A session serves the same interface through
/// `SystemServiceRelay`.
final class LimitsEndpoint {
    private(set) var object: ServedObject!
    let callers: CallerDirectory
    /// Nil where the service counts no traffic, which `notCounting` says why.
    weak var limiting: (any SpeedLimiting)?
    private let notCounting: () -> DBusError

    init(callers: CallerDirectory, send: @escaping (Message) -> Void, notCounting: @escaping () -> DBusError) {
        self.callers = callers
        self.notCounting = notCounting
        object = ServedObject(self, at: ServiceNames.limitsPath, interfaces: [Self.interface],
                              introspectionXML: Self.introspectionXML, send: send)
    }

    /// The caller's user and the rules, or why there are none.
    private func limiting(for caller: String) throws(DBusError) -> (user: UInt32, limiting: any SpeedLimiting) {
        try callers.refuseIfSandboxed(caller, .limit)
        guard let limiting else { throw notCounting() }
        return (try callers.knownUser(of: caller), limiting)
    }

    func setLimit(_ application: String, _ change: LimitChange, caller: String) throws(DBusError) {
        let (user, limiting) = try limiting(for: caller)
        try limiting.changeLimit(of: application, user: user, change)
    }

    func removeLimit(_ application: String, caller: String) throws(DBusError) {
        let (user, limiting) = try limiting(for: caller)
        do {
            try LimitRules.check(application)
        } catch {
            throw error.dbusError
        }
        try limiting.removeLimit(of: application, user: user)
    }

    func limits(for caller: String) throws(DBusError) -> [LimitRecord] {
        let (user, limiting) = try limiting(for: caller)
        return limiting.limits(of: user).map {
            LimitRecord(application: $0.application, down: $0.limit.down, up: $0.limit.up,
                        exemptFromPlans: $0.limit.exemptFromPlans, onMetered: $0.limit.onMetered?.word)
        }
    }

    func setSaver(_ on: Bool, caller: String) throws(DBusError) {
        let (user, limiting) = try limiting(for: caller)
        try limiting.setSaver(on, for: user)
    }

    func saverIsOn(for caller: String) throws(DBusError) -> Bool {
        let (user, limiting) = try limiting(for: caller)
        return limiting.saverIsOn(for: user)
    }
}
