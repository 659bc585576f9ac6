import DBusKit
import Foundation
import NetworkActivityInterface

/// A `dbus-daemon` of the benchmark's own, on a socket in a fresh directory, with limits raised for a thousand
/// connections from one user; never the machine's session or system bus. Killed when the value goes away.
final class BenchBus {
    let directory: URL
    let address: String
    private let process: Process

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("netactivity-bench-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("bus.conf")
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(directory.path)/socket</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
              <limit name="max_completed_connections">100000</limit>
              <limit name="max_connections_per_user">100000</limit>
              <limit name="max_incomplete_connections">10000</limit>
              <limit name="max_replies_per_connection">50000</limit>
            </busconfig>
            """.write(to: config, atomically: true, encoding: .utf8)
        let output = Pipe()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--config-file=\(config.path)", "--nofork", "--print-address=1"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let first = line.split(separator: "\n").first, first.hasPrefix("unix:") else {
            process.terminate()
            throw BenchFailure("dbus-daemon did not start")
        }
        address = String(first)
    }

    func connect() throws -> Connection {
        try Connection(bus: .address(address))
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}

/// The `netactivityd` under test, started on the benchmark's bus; ready once it owns its name, which is
/// awaited as `NameOwnerChanged`, so that the wait measures the start-up time.
final class DaemonUnderTest {
    /// Shows and hides at once, so that every change is measured, not the policy's delays.
    static let noDelays = ["--show-delay", "0", "--hide-delay", "0", "--min-visible", "0"]

    let process: Process
    /// From spawning the process until its name is owned.
    let startUpTime: Duration

    /// `options` are the daemon's own, after `--address`.
    init(bus: BenchBus, executable: String, wrapper: [String] = [], options: [String]) throws {
        let watcher = try bus.connect()
        try watcher.addMatch(MatchRule(sender: Connection.busDriverName, member: "NameOwnerChanged",
                                       arguments: [0: ServiceNames.busName.rawValue]))
        let command = wrapper + [executable, "--address", bus.address] + options
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        // Its log (the default level, as installed) is not part of the report.
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let started = ContinuousClock.now
        try process.run()
        let deadline = started + .seconds(wrapper.isEmpty ? 10 : 120)
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
        process.terminate()
        throw BenchFailure("netactivityd did not take its name")
    }

    /// The daemon named on the command line, or the one beside this program; it must exist.
    static func executable(_ named: String?) throws -> String {
        let executable = named ?? besideThisProgram("netactivityd")
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw BenchFailure("no netactivityd at \(executable): build it first (swift build -c release), "
                               + "or name one with --daemon")
        }
        return executable
    }

    static func besideThisProgram(_ name: String) -> String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// The process that owns the name: the daemon itself, also when it runs under a wrapper.
    private(set) var processID: UInt32 = 0

    /// User plus system CPU time the daemon has used (`/proc/PID/stat`, in clock ticks of usually 10 ms).
    var cpuTime: Duration {
        get throws {
            let stat = try String(contentsOfFile: "/proc/\(processID)/stat", encoding: .utf8)
            // The command name, in parentheses, may contain spaces; the fields after it are numbers.
            guard let close = stat.lastIndex(of: ")") else { throw BenchFailure("cannot read /proc/\(processID)/stat") }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 13, let user = Int64(fields[11]), let system = Int64(fields[12]) else {
                throw BenchFailure("cannot read /proc/\(processID)/stat")
            }
            return .microseconds((user + system) * 1_000_000 / Int64(sysconf(Int32(_SC_CLK_TCK))))
        }
    }

    /// Resident memory in KiB (`VmRSS` of `/proc/PID/status`).
    var residentKiB: Int {
        get throws { try status("VmRSS") }
    }

    /// The highest resident memory since it started, in KiB (`VmHWM`).
    var peakResidentKiB: Int {
        get throws { try status("VmHWM") }
    }

    private func status(_ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(processID)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("\(field):") }),
              let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
        else { throw BenchFailure("cannot read \(field) of /proc/\(processID)/status") }
        return kib
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
