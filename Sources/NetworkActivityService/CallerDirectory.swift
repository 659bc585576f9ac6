// SPDX-License-Identifier: Apache-2.0
import DBusKit

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

    /// `name` left the bus.
    func forget(_ name: String) {
        known[name] = nil
    }
}
