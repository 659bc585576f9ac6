public import DBusKit
public import Foundation

/// A `dbus-daemon` of the caller's own on a socket in a fresh directory, for the tests and the benchmark: never
/// the machine's session or system bus; its limits let one user open thousands of connections. Killed when the
/// value goes away.
public final class PrivateBus {
    /// The bus's folder, which holds its socket, its configuration and its log; removed with the bus.
    public let directory: URL
    /// The bus's address, `unix:path=…`.
    public let address: String
    private let process: Process

    /// Where the bus looks for activation files.
    public enum ServiceDirectories: Sendable {
        case none
        /// One folder.
        case folder(URL)
        /// The session bus's standard ones: `$XDG_DATA_DIRS/dbus-1/services` and the like.
        case standardSession
    }

    /// `policy` replaces the default allow-all policy; `includes` are config files to include, such as the
    /// project's system-bus policy; `services` enables D-Bus activation. `environment` is added to the bus's
    /// (and so to what it activates), and `launcher` is a command line that runs dbus-daemon's, such as a
    /// namespace of its own.
    public init(type: String = "session", policy: String? = nil, includes: [URL] = [], services: ServiceDirectories = .none,
         environment: [String: String] = [:], launcher: [String] = []) throws {
        directory = try temporaryDirectory("bus")
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>\(type)</type>
              <listen>unix:path=\(directory.path)/socket</listen>
              <auth>EXTERNAL</auth>
              \(services.configuration)
              \(policy ?? """
                <policy context="default">
                  <allow send_destination="*" eavesdrop="true"/>
                  <allow eavesdrop="true"/>
                  <allow own="*"/>
                </policy>
                """)
              \(includes.map { "<include>\($0.path)</include>" }.joined(separator: "\n"))
              <limit name="max_completed_connections">100000</limit>
              <limit name="max_connections_per_user">100000</limit>
              <limit name="max_incomplete_connections">10000</limit>
              <limit name="max_replies_per_connection">50000</limit>
            </busconfig>
            """
        let configFile = directory.appendingPathComponent("bus.conf")
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        let output = Pipe()
        process = Process()
        let command = launcher + ["/usr/bin/dbus-daemon", "--config-file=\(configFile.path)", "--nofork",
                                  "--print-address=1"]
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: touch(directory.appendingPathComponent("bus.log")))
        // What the bus starts (an activated netactivityd follows the system bus's service) meets no machine's bus.
        process.environment = [
            "PATH": "/usr/bin:/bin",
            "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(directory.appendingPathComponent("no-system-bus").path)",
        ].merging(SanitizerOptions.environment) { $1 }.merging(environment) { $1 }
        try process.runHandingOverFiles()
        // dbus-daemon prints its address once it listens, or exits.
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        try? output.fileHandleForReading.close()
        guard let first = line.split(separator: "\n").first, first.hasPrefix("unix:") else {
            process.terminate()
            let log = (try? String(contentsOf: directory.appendingPathComponent("bus.log"), encoding: .utf8)) ?? ""
            throw HarnessFailure("dbus-daemon did not start: \(log)")
        }
        address = String(first)
    }

    public var processID: Int32 { process.processIdentifier }

    /// A state directory for the services on this bus (`--state-dir`), in the bus's folder: each instance started
    /// on it takes over what the last one saved there.
    public var stateDirectory: URL { directory.appendingPathComponent("state") }

    /// Kills the bus at once, as a crash would.
    public func kill() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        waitForExit(process)
    }

    /// A private bus has nothing to save; and started from a test runner, dbus-daemon inherits a signal mask
    /// that blocks SIGTERM.
    deinit {
        kill()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A new connection to this bus.
    public func connect() throws(DBusError) -> Connection {
        try Connection(bus: .address(address))
    }
}

extension PrivateBus.ServiceDirectories {
    fileprivate var configuration: String {
        switch self {
        case .none: ""
        case .folder(let url): "<servicedir>\(url.path)</servicedir>"
        case .standardSession: "<standard_session_servicedirs/>"
        }
    }
}
