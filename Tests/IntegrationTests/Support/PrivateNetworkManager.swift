import DBusKit
import Foundation
import ServiceHarness

/// The real NetworkManager, run privately as `docs/testing.md` ("NetworkManager") says: on the test's bus as the
/// system bus, in network and mount namespaces of the test's own ("the machine"), managing one end of a veth pair
/// per network; the other ends are in a second namespace ("the internet"), where paced servers answer, so that
/// every byte really crosses an interface NetworkManager manages. Nothing of the machine's network is touched.
/// Everything stops, and the namespaces go, when the value goes away.
final class PrivateNetworkManager {
    /// A network: a NetworkManager connection on its own veth pair and subnet, the machine at `.2`, the
    /// internet at `.1`.
    struct Network {
        let id: String
        let interface: String
        let subnet: String
        let metered: Bool

        var serverAddress: String { "\(subnet).1" }
    }

    let networks: [Network]
    /// The process whose namespaces are the machine's (NetworkManager's own unshare), and the internet's.
    private let machine: Process
    private let internet: Process
    private let bus: PrivateBus
    private let folder: URL
    let logFile: URL

    /// NetworkManager's own system-bus policy, as its package installs it.
    static let policy = URL(fileURLWithPath: "/usr/share/dbus-1/system.d/org.freedesktop.NetworkManager.conf")

    /// A system-like bus with the project's policy and NetworkManager's, as a machine has them.
    static func systemBus() throws -> PrivateBus {
        try systemLikeBus(including: [systemPolicy, policy])
    }

    static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/sbin/NetworkManager")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/nmcli")
    }

    init(bus: PrivateBus, networks: [Network]) throws {
        self.bus = bus
        self.networks = networks
        folder = bus.directory.appendingPathComponent("networkmanager")
        let connections = folder.appendingPathComponent("connections")
        try FileManager.default.createDirectory(at: connections, withIntermediateDirectories: true)
        for directory in ["conf.d", "system-conf.d"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(directory),
                                                    withIntermediateDirectories: true)
        }
        try """
            [main]
            plugins=keyfile
            auth-polkit=false
            dns=none
            rc-manager=unmanaged
            hostname-mode=none
            no-auto-default=*
            [keyfile]
            path=\(connections.path)

            """.write(to: folder.appendingPathComponent("NetworkManager.conf"), atomically: true, encoding: .utf8)
        for network in networks {
            let file = connections.appendingPathComponent("\(network.interface).nmconnection")
            try """
                [connection]
                id=\(network.id)
                type=ethernet
                interface-name=\(network.interface)
                autoconnect=false
                metered=\(network.metered ? 1 : 2)
                [ipv4]
                method=manual
                address1=\(network.subnet).2/24\(network === networks.first ? ",\(network.subnet).1" : "")
                [ipv6]
                method=ignore

                """.write(to: file, atomically: true, encoding: .utf8)
            chmod(file.path, 0o600)
        }
        let internet = Process()
        self.internet = internet
        internet.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        internet.arguments = ["--net", "sleep", "infinity"]
        try withSignalsUnblocked { try internet.runHandingOverFiles() }
        let internetID = internet.processIdentifier
        let pairs = networks.map { network in
            let peer = network.interface + "p"
            return """
                ip link add \(network.interface) type veth peer name \(peer) netns \(internetID)
                nsenter -t \(internetID) -n sh -c 'ip link set lo up; \
                ip addr add \(network.serverAddress)/24 dev \(peer); ip link set \(peer) up'
                """
        }.joined(separator: "\n")
        let script = """
            set -e
            export PATH=/usr/sbin:/usr/bin:/sbin:/bin
            mount --make-rprivate /
            mount -t tmpfs tmpfs /run
            mkdir -p /var/lib/NetworkManager
            mount -t tmpfs tmpfs /var/lib/NetworkManager
            # Read-only: with no udev, a writable /sys makes NetworkManager wait for udev and manage nothing.
            mount -t sysfs -o ro sysfs /sys
            ip link set lo up
            \(pairs)
            export DBUS_SYSTEM_BUS_ADDRESS='\(bus.address)'
            exec NetworkManager --no-daemon --config=\(folder.path)/NetworkManager.conf \
              --config-dir=\(folder.path)/conf.d --system-config-dir=\(folder.path)/system-conf.d \
              --intern-config=\(folder.path)/intern.conf --state-file=\(folder.path)/state
            """
        logFile = try touch(folder.appendingPathComponent("NetworkManager.log"))
        let watcher = try bus.connect()
        try watcher.addMatch(MatchRule(sender: Connection.busDriverName, member: "NameOwnerChanged",
                                       arguments: [0: "org.freedesktop.NetworkManager"]))
        machine = Process()
        machine.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        // No --fork: the shell, then NetworkManager, is this process, and stops with it.
        machine.arguments = ["--net", "--mount", "/bin/sh", "-c", script]
        machine.standardOutput = try FileHandle(forWritingTo: logFile)
        machine.standardError = machine.standardOutput
        try withSignalsUnblocked { try machine.runHandingOverFiles() }
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
            guard let signal = try watcher.nextMessage(timeout: ContinuousClock.now.duration(to: deadline)) else {
                throw TestFailure("NetworkManager did not take its name within 20 s: \(log)")
            }
            if signal.member == "NameOwnerChanged" { break }
        }
        for network in networks { try nmcli(["connection", "up", network.id]) }
    }

    deinit {
        for process in [machine, internet] where process.isRunning {
            process.terminate()
            if !waitForExit(process, timeout: .seconds(10)) { kill(process.processIdentifier, SIGKILL) }
        }
    }

    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// Runs nmcli on the test's bus; throws what it said when it fails.
    @discardableResult
    func nmcli(_ arguments: [String]) throws -> String {
        let result = try runTool("nmcli", ["--wait", "15"] + arguments, bus: bus)
        guard result.succeeded else {
            throw TestFailure("nmcli \(arguments.joined(separator: " ")) failed: \(result)\n\(log)")
        }
        return result.stdout
    }

    /// Makes a network's connection metered or not, on its device at once (`nmcli device reapply`), as a person
    /// does in the connection's settings.
    func setMetered(_ network: Network, _ metered: Bool) throws {
        try nmcli(["connection", "modify", network.id, "connection.metered", metered ? "yes" : "no"])
        try nmcli(["device", "reapply", network.interface])
    }

    /// A command line that runs `command` in the machine's network namespace (not its mount namespace: the
    /// service and apps see the machine's files).
    func inMachine(_ command: [String]) -> [String] {
        ["/usr/bin/nsenter", "-t", "\(machine.processIdentifier)", "-n", "--"] + command
    }

    func inInternet(_ command: [String]) -> [String] {
        ["/usr/bin/nsenter", "-t", "\(internet.processIdentifier)", "-n", "--"] + command
    }

    /// An interface's own counters in the machine's namespace (`/proc/PID/net/dev`): bytes received and sent,
    /// the link layer's headers included, as a provider bills them.
    func interfaceBytes(_ interface: String) throws -> (received: UInt64, sent: UInt64) {
        let text = try String(contentsOfFile: "/proc/\(machine.processIdentifier)/net/dev", encoding: .utf8)
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == interface else { continue }
            let fields = parts[1].split(separator: " ").compactMap { UInt64($0) }
            guard fields.count >= 9 else { break }
            return (fields[0], fields[8])
        }
        throw TestFailure("no \(interface) in the machine's /proc/net/dev: \(text)")
    }
}

private func === (lhs: PrivateNetworkManager.Network, rhs: PrivateNetworkManager.Network?) -> Bool {
    lhs.interface == rhs?.interface
}
