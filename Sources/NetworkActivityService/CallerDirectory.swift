// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity

/// Who is behind the service's callers: what the bus says of a connection (its Unix user and process) and the
/// application the system says it is, asked once per connection. Unique names are never reused, so an entry
/// holds until its name leaves the bus.
final class CallerDirectory {
    /// Who is behind a connection.
    struct Caller {
        var credentials: ConnectionCredentials
        var application: String?
        /// Its process's cgroup v2, from the tree's root: where the kernel counts its traffic.
        var cgroup: String?
        /// The Flatpak app it is, when it runs in a sandbox (`CallerApplication.sandboxedApp`): it reaches its
        /// own activities alone (`AccessRules.SandboxedRequest`).
        var sandbox: String?
    }

    private var known: [String: Caller] = [:]
    private let lookUpCredentials: (BusName) -> ConnectionCredentials?
    private let lookUpApplication: (UInt32) -> String?

    /// - Parameters:
    ///   - lookUpCredentials: the bus's answer to `GetConnectionCredentials`, nil when it has none.
    ///   - lookUpApplication: the application of a process (`CallerApplication`).
    init(lookUpCredentials: @escaping (BusName) -> ConnectionCredentials?,
         lookUpApplication: @escaping (UInt32) -> String?) {
        self.lookUpCredentials = lookUpCredentials
        self.lookUpApplication = lookUpApplication
    }

    /// Who is behind `name`, asked of the bus and the system the first time; nil once it has left.
    subscript(name: String) -> Caller? {
        if let caller = known[name] { return caller }
        guard let busName = try? BusName(name), let credentials = lookUpCredentials(busName) else { return nil }
        let cgroup = credentials.processID.flatMap(CallerApplication.unifiedCgroup(ofProcess:))
        let found = Caller(credentials: credentials, application: credentials.processID.flatMap(lookUpApplication),
                           cgroup: cgroup,
                           sandbox: credentials.processID.flatMap { CallerApplication.sandboxedApp(ofProcess: $0) })
        known[name] = found
        return found
    }

    /// Who was behind `name`, if it was ever asked; asks nothing.
    func asked(_ name: String) -> Caller? {
        known[name]
    }

    /// The Flatpak app behind a caller that runs in a sandbox; nil for any other.
    func sandbox(of name: String) -> String? {
        self[name]?.sandbox
    }

    /// The Unix user behind a caller.
    func unixUser(of name: String) -> UInt32? {
        self[name]?.credentials.user
    }

    /// The Unix user behind a caller, or the error that says the bus did not tell.
    func knownUser(of name: String) throws(DBusError) -> UInt32 {
        guard let user = unixUser(of: name) else {
            throw DBusError(.failed, "the bus did not tell the Unix user of \(name)")
        }
        return user
    }

    /// Refuses `request` to a caller that runs in a sandbox with `Error.Sandboxed`, saying why: a sandboxed app
    /// reaches its own activities and the indicator alone, whatever its `--talk-name` lets it call.
    func refuseIfSandboxed(_ name: String, _ request: AccessRules.SandboxedRequest) throws(DBusError) {
        guard let app = sandbox(of: name) else { return }
        throw DBusError(.sandboxed, "\(app) runs in a sandbox, and this \(AccessRules.refusal(ofSandboxed: request)): "
                        + "a sandboxed app may use its own activities alone")
    }

    /// `name` left the bus.
    func forget(_ name: String) {
        known[name] = nil
    }
}
