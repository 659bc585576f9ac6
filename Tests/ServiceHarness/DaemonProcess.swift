public import Foundation
import DBusKit
import NetworkActivityInterface

/// A `netactivityd` started on a private bus, for a test or a benchmark; ready once it owns its name, which is
/// awaited as `NameOwnerChanged` with a deadline, so that the wait also measures its start-up. Its standard error
/// goes to a log file in the bus's folder. Stopped (SIGTERM, then SIGKILL) when the value goes away.
public final class DaemonProcess {
    /// Shows and hides at once, so that every change is seen at once, not after the policy's delays.
    public static let noDelays = ["--show-delay", "0", "--hide-delay", "0", "--min-visible", "0"]

    public let process: Process
    public let logFile: URL
    /// From spawning the process until its name was owned; zero when that was not awaited.
    public private(set) var startUpTime: Duration = .zero
    /// When the process was spawned.
    public private(set) var spawnedAt = ContinuousClock.now
    /// The process that owns the name: the daemon itself, also when it runs under a wrapper (valgrind). Until the
    /// name is owned, the spawned process.
    public private(set) var processID: UInt32

    /// - Parameters:
    ///   - arguments: the daemon's own options, after `--address` (or `--system`).
    ///   - executable: by default the `netactivityd` built beside the running program.
    ///   - wrapper: a command line that runs the daemon, such as `valgrind --tool=callgrind`.
    ///   - awaitName: whether to wait, up to `startTimeout`, until it owns its name.
    ///   - systemBus: runs it with `--system`, the private bus named as the system bus, and its state in the bus's
    ///     `stateDirectory` unless `arguments` name one or `defaultStateDirectory` (`/run/netactivity`, for a
    ///     daemon in a mount namespace with a `/run` of its own).
    ///   - logToJournal: sets `JOURNAL_STREAM` to the log file's device and inode, as systemd does for the stream
    ///     it connects a service's stderr to.
    ///   - environment: added to its environment, which otherwise holds only `PATH`.
    public init(bus: PrivateBus, arguments: [String] = DaemonProcess.noDelays,
                executable: URL = BuiltProducts.program("netactivityd"), wrapper: [String] = [],
                awaitName: Bool = true, startTimeout: Duration = .seconds(20), systemBus: Bool = false,
                defaultStateDirectory: Bool = false, logToJournal: Bool = false,
                environment: [String: String] = [:]) throws {
        let watcher = try bus.connect()
        try watcher.addMatch(MatchRule(sender: Connection.busDriverName, member: "NameOwnerChanged",
                                       arguments: [0: ServiceNames.busName.rawValue]))
        logFile = try touch(bus.directory.appendingPathComponent("netactivityd-\(UUID().uuidString.prefix(6)).log"))
        // With --system it would keep its state in /run/netactivity: the machine's, which no test touches.
        let state = systemBus && !defaultStateDirectory && !arguments.contains("--state-dir")
            ? ["--state-dir", bus.stateDirectory.path] : []
        let command = wrapper + [executable.path] + (systemBus ? ["--system"] : ["--address", bus.address]) + state
            + arguments
        process = Process()
        process.executableURL = URL(fileURLWithPath: wrapper.isEmpty ? command[0] : "/usr/bin/env")
        process.arguments = wrapper.isEmpty ? Array(command.dropFirst()) : command
        process.environment = ["PATH": "/usr/bin:/bin"].merging(SanitizerOptions.environment) { $1 }
        // A service on a session bus follows the system bus's service: never the machine's, unless a test gives one.
        process.environment?["DBUS_SYSTEM_BUS_ADDRESS"] = systemBus
            ? bus.address : "unix:path=\(bus.directory.appendingPathComponent("no-system-bus").path)"
        if logToJournal { process.environment?["JOURNAL_STREAM"] = try journalStream(of: logFile) }
        process.environment?.merge(environment) { $1 }
        process.standardError = try FileHandle(forWritingTo: logFile)
        process.standardOutput = FileHandle.nullDevice
        let started = ContinuousClock.now
        spawnedAt = started
        try process.runHandingOverFiles()
        processID = UInt32(process.processIdentifier)
        guard awaitName else { return }
        let deadline = started + startTimeout
        while let signal = try watcher.nextMessage(timeout: ContinuousClock.now.duration(to: deadline)) {
            var reader = signal.arguments()
            guard signal.member == "NameOwnerChanged", try reader.read(String.self) == ServiceNames.busName.rawValue
            else { continue }
            _ = try reader.read(String.self)
            if try !reader.read(String.self).isEmpty {
                startUpTime = started.duration(to: .now)
                processID = try watcher.processID(of: ServiceNames.busName)
                return
            }
        }
        throw HarnessFailure("netactivityd did not take its name within \(startTimeout): \(log)")
    }

    /// What it has logged so far.
    public var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// Waits until the log, a file that tells no one when it grows, holds `text`: it is read again every 20 ms
    /// until `timeout`.
    public func awaitLog(_ text: String, timeout: Duration = .seconds(10)) throws {
        let deadline = ContinuousClock.now + timeout
        while !log.contains(text) {
            guard ContinuousClock.now < deadline else {
                throw HarnessFailure("no \"\(text)\" in netactivityd's log within \(timeout): \(log)")
            }
            usleep(20_000)
        }
    }
    public var isRunning: Bool { process.isRunning }

    public func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// The exit status, or nil if it did not exit within `timeout`.
    public func exitStatus(within timeout: Duration = .seconds(10)) -> Int32? {
        waitForExit(process, timeout: timeout) ? process.terminationStatus : nil
    }

    deinit {
        if process.isRunning {
            process.terminate()
            if !waitForExit(process, timeout: .seconds(10)) { kill(process.processIdentifier, SIGKILL) }
        }
    }
}

/// `JOURNAL_STREAM`'s value for a file: its device and inode numbers, `"8:1234"`.
public func journalStream(of file: URL) throws -> String {
    var status = stat()
    guard stat(file.path, &status) == 0 else { throw HarnessFailure("cannot stat \(file.path)") }
    return "\(status.st_dev):\(status.st_ino)"
}
