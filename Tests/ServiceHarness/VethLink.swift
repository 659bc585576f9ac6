import Foundation

/// Two network namespaces of the caller's own joined by a veth pair, so that a transfer crosses a real interface
/// rather than loopback (which the counting programs treat apart): the app's side at `appAddress`, the server's at
/// `serverAddress`. Each namespace is held by a `sleep` that `unshare` started; they go, with the pair, when it is
/// stopped. The machine's own network is never touched, and two copies of the suite each have their own. Needs root.
public final class VethLink {
    public static let appAddress = "10.215.0.1"
    public static let serverAddress = "10.215.0.2"
    private let appSide: Process
    private let serverSide: Process

    public init() throws {
        appSide = try Self.holdNamespace()
        serverSide = try Self.holdNamespace()
        let script = """
            set -e
            export PATH=/usr/sbin:/usr/bin:/sbin:/bin
            ip link set lo up
            ip link add app0 type veth peer name server0 netns \(serverSide.processIdentifier)
            ip addr add \(Self.appAddress)/24 dev app0
            ip link set app0 up
            nsenter -t \(serverSide.processIdentifier) -n sh -c \
              'ip link set lo up; ip addr add \(Self.serverAddress)/24 dev server0; ip link set server0 up'
            """
        let making = Process()
        making.executableURL = URL(fileURLWithPath: "/usr/bin/nsenter")
        making.arguments = ["-t", "\(appSide.processIdentifier)", "-n", "/bin/sh", "-c", script]
        making.standardOutput = FileHandle.nullDevice
        making.standardError = FileHandle.nullDevice
        try making.runHandingOverFiles()
        waitForExit(making)
        guard making.terminationStatus == 0 else {
            throw HarnessFailure("the veth pair was not made: ip exited with \(making.terminationStatus)")
        }
    }

    deinit {
        for process in [appSide, serverSide] where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            waitForExit(process)
        }
    }

    /// `command` in the app's namespace.
    public func onAppSide(_ command: [String]) -> [String] {
        ["/usr/bin/nsenter", "-t", "\(appSide.processIdentifier)", "-n", "--"] + command
    }

    /// `command` in the server's namespace.
    public func onServerSide(_ command: [String]) -> [String] {
        ["/usr/bin/nsenter", "-t", "\(serverSide.processIdentifier)", "-n", "--"] + command
    }

    /// A `sleep` in a network namespace of its own, once it is there: `unshare` makes the namespace, then becomes
    /// the `sleep`.
    private static func holdNamespace() throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["--net", "sleep", "infinity"]
        try withSignalsUnblocked { try process.runHandingOverFiles() }
        let deadline = ContinuousClock.now + .seconds(10)
        var pause = Duration.microseconds(100)
        while ContinuousClock.now < deadline {
            let command = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/comm", encoding: .utf8)
            if command?.hasPrefix("sleep") == true { return process }
            Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) / 1e18)
            pause = min(pause * 2, .milliseconds(5))
        }
        process.terminate()
        throw HarnessFailure("unshare did not make a network namespace within 10 s")
    }
}
