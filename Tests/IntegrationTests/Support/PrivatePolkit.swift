import Foundation
import ServiceHarness

/// The real polkit daemon on a private system bus of the test's own, in a mount namespace of its own whose action
/// folder holds the project's action alone (`dbus/org.example.NetworkActivity.policy`, as the package installs it)
/// and whose rules folders hold the test's rule alone: the users it names are authorized for the project's
/// action, and nobody else is (without logind, no session is active, and no authentication agent answers the
/// action's administrator's password). The machine's own polkit folders are never read or written. Needs root.
final class PrivatePolkit {
    private let process: Process

    static var isInstalled: Bool {
        geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/lib/polkit-1/polkitd")
    }

    /// The bus must allow polkit its name: `systemLikeBus(including: [PrivatePolkit.busPolicy, …])`.
    static let busPolicy = URL(fileURLWithPath: "/usr/share/dbus-1/system.d/org.freedesktop.PolicyKit1.conf")

    init(bus: PrivateBus, authorizing users: [String], action: String) throws {
        let folder = bus.directory.appendingPathComponent("polkit")
        let actions = folder.appendingPathComponent("actions"), rules = folder.appendingPathComponent("rules.d")
        let none = folder.appendingPathComponent("no-rules")
        for made in [actions, rules, none] {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(at: Paths.dbusFolder.appendingPathComponent("org.example.NetworkActivity.policy"),
                                         to: actions.appendingPathComponent("org.example.NetworkActivity.policy"))
        let names = users.map { "\"\($0)\"" }.joined(separator: ", ")
        try """
            polkit.addRule(function(action, subject) {
                if (action.id == "\(action)" && [\(names)].indexOf(subject.user) >= 0)
                    return polkit.Result.YES;
            });

            """.write(to: rules.appendingPathComponent("50-test.rules"), atomically: true, encoding: .utf8)
        for path in [folder, actions, rules, none] { chmod(path.path, 0o755) }
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["--mount", "--propagation", "private", "/bin/sh", "-ec", """
            mount --bind \(actions.path) /usr/share/polkit-1/actions
            mount --bind \(rules.path) /etc/polkit-1/rules.d
            [ ! -d /usr/share/polkit-1/rules.d ] || mount --bind \(none.path) /usr/share/polkit-1/rules.d
            exec /usr/lib/polkit-1/polkitd --no-debug
            """]
        process.environment = ["PATH": "/usr/bin:/bin", "DBUS_SYSTEM_BUS_ADDRESS": bus.address]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: touch(bus.directory.appendingPathComponent("polkit.log")))
        try withSignalsUnblocked { try process.runHandingOverFiles() }
        try awaitOwner(of: "org.freedesktop.PolicyKit1", on: bus)
    }

    deinit {
        process.terminate()
        _ = waitForExit(process, timeout: .seconds(10))
    }
}
