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
    init(bus: PrivateBus, arguments: [String] = ServiceProcess.fastDelays, awaitName: Bool = true,
         executable: URL = Paths.daemon, systemBus: Bool = false) throws {
        let watcher = try Connection(bus: .address(bus.address))
        try watcher.addMatch(MatchRule(sender: Connection.busDriverName, member: "NameOwnerChanged",
                                       arguments: [0: busName.rawValue]))
        logFile = try touch(bus.directory.appendingPathComponent("netactivityd-\(UUID().uuidString.prefix(6)).log"))
        process = Process()
        process.executableURL = executable
        process.arguments = (systemBus ? ["--system"] : ["--address", bus.address]) + arguments
        process.environment = ["PATH": "/usr/bin:/bin"]
        if systemBus { process.environment?["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address }
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

let busName = ServiceNames.busName
let objectPath = ServiceNames.objectPath
let interfaceName = ServiceNames.interface
