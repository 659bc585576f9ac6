import DBusKit
import Foundation
import NetworkActivityInterface

/// The real `netactivityd` binary, started on a private bus; ready once it owns its name, which is awaited as a
/// `NameOwnerChanged` signal with a deadline.
final class ServiceProcess {
    static let fastDelays = ["--show-delay", "0", "--hide-delay", "0", "--min-visible", "0"]

    let process: Process
    let logFile: URL

    /// `systemBus` runs it with `--system`, the private bus named as the system bus; otherwise with `--address`.
    /// `logToJournal` sets `JOURNAL_STREAM` to the log file's device and inode, as systemd does for the stream it
    /// connects a service's stderr to; `environment` is added after that.
    init(bus: PrivateBus, arguments: [String] = ServiceProcess.fastDelays, awaitName: Bool = true,
         executable: URL = Paths.daemon, systemBus: Bool = false, logToJournal: Bool = false,
         environment: [String: String] = [:]) throws {
        let watcher = try Connection(bus: .address(bus.address))
        try watcher.addMatch(MatchRule(sender: Connection.busDriverName, member: "NameOwnerChanged",
                                       arguments: [0: busName.rawValue]))
        logFile = try touch(bus.directory.appendingPathComponent("netactivityd-\(UUID().uuidString.prefix(6)).log"))
        process = Process()
        process.executableURL = executable
        process.arguments = (systemBus ? ["--system"] : ["--address", bus.address]) + arguments
        process.environment = ["PATH": "/usr/bin:/bin"]
        if systemBus { process.environment?["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address }
        if logToJournal { process.environment?["JOURNAL_STREAM"] = try journalStream(of: logFile) }
        process.environment?.merge(environment) { $1 }
        process.standardError = try FileHandle(forWritingTo: logFile)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        if awaitName {
            let deadline = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < deadline {
                guard let signal = try watcher.nextMessage(timeout: ContinuousClock.now.duration(to: deadline)) else { break }
                var reader = signal.arguments()
                guard signal.member == "NameOwnerChanged", try reader.read(String.self) == busName.rawValue
                else { continue }
                _ = try reader.read(String.self)
                if try !reader.read(String.self).isEmpty { return }
            }
            throw TestFailure("netactivityd did not take its name: \(log)")
        }
    }

    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }
    var isRunning: Bool { process.isRunning }

    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// The exit status, or nil if it did not exit within `timeout`.
    func exitStatus(within timeout: Duration = .seconds(10)) -> Int32? {
        waitForExit(process, timeout: timeout) ? process.terminationStatus : nil
    }

    deinit {
        if process.isRunning {
            process.terminate()
            if !waitForExit(process, timeout: .seconds(3)) { kill(process.processIdentifier, SIGKILL) }
        }
    }
}

/// `JOURNAL_STREAM`'s value for a file: its device and inode numbers, `"8:1234"`.
func journalStream(of file: URL) throws -> String {
    var status = stat()
    guard stat(file.path, &status) == 0 else { throw TestFailure("cannot stat \(file.path)") }
    return "\(status.st_dev):\(status.st_ino)"
}

let busName = ServiceNames.busName
let objectPath = ServiceNames.objectPath
let interfaceName = ServiceNames.interface
