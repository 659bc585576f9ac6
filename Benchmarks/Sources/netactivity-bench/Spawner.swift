// SPDX-License-Identifier: Apache-2.0
import Foundation
import ServiceHarness

/// One command run to its end: how long from its spawn until it was reaped, and what it printed.
struct SpawnedRun {
    let wall: Duration
    let output: String
}

/// Starts programs with `posix_spawn`, this process's environment plus `environment`, and standard error thrown
/// away: nothing of Foundation's `Process` between the clock and the child.
struct Spawner {
    private let environment: [String]

    init(environment overrides: [String: String]) {
        var merged = ProcessInfo.processInfo.environment
        merged.merge(overrides) { $1 }
        environment = merged.map { "\($0.key)=\($0.value)" }
    }

    /// Runs `arguments` to its end; its standard output is kept. Throws when it fails.
    func run(_ arguments: [String]) throws -> SpawnedRun {
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("netactivity-bench-\(getpid())-output")
        defer { try? FileManager.default.removeItem(at: output) }
        let started = ContinuousClock.now
        let child = try spawn(arguments, standardOutput: output.path)
        var status: Int32 = 0
        guard waitpid(child, &status, 0) == child else { throw BenchFailure("waitpid failed: errno \(errno)") }
        let wall = started.duration(to: .now)
        let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        // Exited normally with status 0.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw BenchFailure("\(arguments.joined(separator: " ")) failed (wait status \(status)): \(printed)")
        }
        return SpawnedRun(wall: wall, output: printed)
    }

    /// The peak resident memory of `arguments`, in KiB, as GNU time reports it. Not this process's own `wait4`:
    /// a child spawned from it shares its memory until the `exec`, and the kernel counts this process's peak as
    /// the child's; GNU time forks from a process of about 2 MB, less than any program measured here.
    func peakResidentKiB(_ arguments: [String]) throws -> Int {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("netactivity-bench-\(getpid())-time")
        defer { try? FileManager.default.removeItem(at: report) }
        _ = try run(["/usr/bin/time", "-f", "%M", "-o", report.path, "--quiet"] + arguments)
        let text = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
        guard let kib = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchFailure("no peak memory from GNU time in: \(text)")
        }
        return kib
    }

    /// Starts `arguments` in the background, its output written to `output` (thrown away by default); returns its
    /// process id.
    func start(_ arguments: [String], output: String = "/dev/null") throws -> pid_t {
        try spawn(arguments, standardOutput: output)
    }

    private func spawn(_ arguments: [String], standardOutput: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        // Signals as a shell would leave them: this process's threads block most, and a child inherits the mask.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), everySignal = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&everySignal)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let result = posix_spawn(&child, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else { throw BenchFailure("cannot start \(arguments[0]): error \(result)") }
        return child
    }
}

/// Waits for a child started with `Spawner.start`; its wait status.
func reap(_ child: pid_t) -> Int32 {
    var status: Int32 = 0
    _ = waitpid(child, &status, 0)
    return status
}
