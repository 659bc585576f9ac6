import Foundation

/// What the kernel says of a process's use of the machine (`/proc/PID`), for the benchmark.
public struct ProcessFigures: Sendable {
    public let processID: Int32

    public init(processID: Int32) {
        self.processID = processID
    }

    /// User plus system CPU time used so far, in clock ticks (usually 10 ms).
    public var cpuTicks: Int64 {
        get throws {
            let stat = try String(contentsOfFile: "/proc/\(processID)/stat", encoding: .utf8)
            // The command name, in parentheses, may contain spaces; the fields after it are numbers.
            guard let close = stat.lastIndex(of: ")") else { throw HarnessFailure("cannot read /proc/\(processID)/stat") }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 13, let user = Int64(fields[11]), let system = Int64(fields[12]) else {
                throw HarnessFailure("cannot read /proc/\(processID)/stat")
            }
            return user + system
        }
    }

    /// User plus system CPU time used so far.
    public var cpuTime: Duration {
        get throws { .microseconds(try cpuTicks * 1_000_000 / Int64(sysconf(Int32(_SC_CLK_TCK)))) }
    }

    /// Resident memory in KiB (`VmRSS` of `/proc/PID/status`).
    public var residentKiB: Int {
        get throws { try statusField("VmRSS") }
    }

    /// The part of `residentKiB` that the process allocated itself (`RssAnon`): not its program's and libraries'
    /// pages, which the kernel maps from the page cache and shares.
    public var anonymousResidentKiB: Int {
        get throws { try statusField("RssAnon") }
    }

    /// The highest resident memory since it started, in KiB (`VmHWM`).
    public var peakResidentKiB: Int {
        get throws { try statusField("VmHWM") }
    }

    /// How many times its main thread, where a service's event loop runs, has been put to sleep and woken since it
    /// started: its context switches (`/proc/PID/task/PID/status`). A loop that waits in `poll` adds one each time
    /// it wakes; the threads a sanitizer adds are not counted.
    public var mainThreadContextSwitches: Int {
        get throws {
            let status = try String(contentsOfFile: "/proc/\(processID)/task/\(processID)/status", encoding: .utf8)
            return status.split(separator: "\n")
                .filter { $0.hasPrefix("voluntary_ctxt_switches:") || $0.hasPrefix("nonvoluntary_ctxt_switches:") }
                .reduce(0) { $0 + (Int($1.split(separator: "\t").last ?? "") ?? 0) }
        }
    }

    private func statusField(_ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(processID)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("\(field):") }),
              let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
        else { throw HarnessFailure("cannot read \(field) of /proc/\(processID)/status") }
        return kib
    }
}

extension DaemonProcess {
    /// The daemon's figures.
    public var figures: ProcessFigures { ProcessFigures(processID: Int32(processID)) }

    /// User plus system CPU time the daemon has used.
    public var cpuTime: Duration {
        get throws { try figures.cpuTime }
    }

    /// Resident memory in KiB.
    public var residentKiB: Int {
        get throws { try figures.residentKiB }
    }

    /// The highest resident memory since it started, in KiB.
    public var peakResidentKiB: Int {
        get throws { try figures.peakResidentKiB }
    }
}
