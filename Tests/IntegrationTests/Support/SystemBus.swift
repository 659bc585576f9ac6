import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness

/// A system-like bus, after Debian's system.conf: nothing may be owned or called unless a policy says so.
func systemLikeBus(including policy: [URL]) throws -> PrivateBus {
    try PrivateBus(type: "system", policy: """
        <policy context="default">
          <allow user="*"/>
          <deny own="*"/>
          <deny send_type="method_call"/>
          <allow send_type="signal"/>
          <allow send_requested_reply="true" send_type="method_return"/>
          <allow send_requested_reply="true" send_type="error"/>
          <allow receive_type="method_call"/>
          <allow receive_type="method_return"/>
          <allow receive_type="error"/>
          <allow receive_type="signal"/>
          <allow send_destination="org.freedesktop.DBus"/>
        </policy>
        """, includes: policy)
}

/// Waits, up to 20 s, until `name` has an owner on `bus` (a daemon the test started took it).
func awaitOwner(of name: String, on bus: PrivateBus) throws {
    let watcher = try bus.connect()
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline {
        if let busName = try? BusName(name), (try? watcher.nameOwner(of: busName)) != nil { return }
        usleep(20_000)
    }
    throw TestFailure("\(name) did not appear on the private system bus")
}

/// The project's system-bus policy, as installed.
let systemPolicy = Paths.dbusFolder.appendingPathComponent("org.example.NetworkActivity.conf")

/// A Unix user of the test's own, made with `useradd` (as root) and removed when the value goes away.
final class ThrowawayUser {
    let name: String

    /// Its Unix user id.
    var uid: UInt32 {
        get throws {
            guard let entry = getpwnam(name) else { throw TestFailure("no user \(name)") }
            return entry.pointee.pw_uid
        }
    }

    init() throws {
        name = "na-test-\(UUID().uuidString.prefix(6).lowercased())"
        let made = try runTool("/usr/sbin/useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                                                     name], bus: nil)
        guard made.succeeded else { throw TestFailure("useradd \(name) failed: \(made)") }
    }

    deinit {
        _ = try? runTool("/usr/sbin/userdel", [name], bus: nil)
    }
}

/// `dbus-send --system --print-reply` to the service, run as `user` through `runuser`.
func dbusSend(as user: String, _ bus: PrivateBus, _ member: String, _ arguments: String...) throws -> ToolResult {
    try dbusSend(as: user, bus, member, arguments: arguments)
}

/// The same, of a member of the service's interface as `ServiceMembers` declares it.
func dbusSend(as user: String, _ bus: PrivateBus, _ member: MemberName, _ arguments: String...) throws -> ToolResult {
    try dbusSend(as: user, bus, "\(ServiceNames.interface).\(member)", arguments: arguments)
}

func dbusSend(as user: String, _ bus: PrivateBus, _ member: String, arguments: [String]) throws -> ToolResult {
    try runTool("/usr/sbin/runuser", ["-u", user, "--", "/usr/bin/dbus-send", "--system", "--print-reply",
                                      "--dest=org.example.NetworkActivity", "/org/example/NetworkActivity",
                                      member.contains(".") ? member : "org.example.NetworkActivity.\(member)"]
                 + arguments, bus: bus)
}

/// The Unix user id of `name`, from `id -u`.
func userID(of name: String) throws -> UInt32 {
    let result = try runTool("id", ["-u", name], bus: nil)
    guard let id = UInt32(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw TestFailure("id -u \(name): \(result)")
    }
    return id
}
