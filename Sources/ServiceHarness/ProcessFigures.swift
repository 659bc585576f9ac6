import Foundation

/// What the kernel says of the daemon's use of the machine, for the benchmark.
extension DaemonProcess {
    /// User plus system CPU time the daemon has used (`/proc/PID/stat`, in clock ticks of usually 10 ms).
    public var cpuTime: Duration {
        get throws {
            let stat = try String(contentsOfFile: "/proc/\(processID)/stat", encoding: .utf8)
            // The command name, in parentheses, may contain spaces; the fields after it are numbers.
            guard let close = stat.lastIndex(of: ")") else { throw HarnessFailure("cannot read /proc/\(processID)/stat") }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 13, let user = Int64(fields[11]), let system = Int64(fields[12]) else {
                throw HarnessFailure("cannot read /proc/\(processID)/stat")
            }
            return .microseconds((user + system) * 1_000_000 / Int64(sysconf(Int32(_SC_CLK_TCK))))
        }
    }

    /// Resident memory in KiB (`VmRSS` of `/proc/PID/status`).
    public var residentKiB: Int {
        get throws { try statusField("VmRSS") }
    }

    /// The highest resident memory since it started, in KiB (`VmHWM`).
    public var peakResidentKiB: Int {
        get throws { try statusField("VmHWM") }
    }

    private func statusField(_ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(processID)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("\(field):") }),
              let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
        else { throw HarnessFailure("cannot read \(field) of /proc/\(processID)/status") }
        return kib
    }
}
