import Foundation
import ServiceHarness

/// A command left running while the test goes on (`netactivity watch`, `netactivity run`), its stdout read
/// line by line with deadlines. Stopped when the value goes away.
final class BackgroundProcess {
    let process: Process
    private let output: FileHandle
    private let errorFile: URL
    private let input: FileHandle?
    private var buffer = Data()
    /// Every line read so far, for failure messages.
    private(set) var lines: [String] = []

    /// - Parameters:
    ///   - path: the command's `PATH`.
    ///   - environment: added to its environment, which otherwise holds `PATH` and the session bus's address.
    ///   - takesInput: gives it a standard input that `write` writes to; else it reads nothing.
    init(_ executable: URL, _ arguments: [String], bus: PrivateBus, path: String = "/usr/bin:/bin",
         environment: [String: String] = [:], takesInput: Bool = false) throws {
        let pipe = Pipe()
        errorFile = try touch(bus.directory.appendingPathComponent("stderr-\(UUID().uuidString.prefix(6))"))
        let process = Process()
        self.process = process
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ["PATH": path, "DBUS_SESSION_BUS_ADDRESS": bus.address]
            .merging(SanitizerOptions.environment) { $1 }
        process.environment?.merge(environment) { $1 }
        process.standardOutput = pipe
        process.standardError = try FileHandle(forWritingTo: errorFile)
        let input = Pipe()
        process.standardInput = takesInput ? input : FileHandle.nullDevice
        self.input = takesInput ? input.fileHandleForWriting : nil
        output = pipe.fileHandleForReading
        try withSignalsUnblocked { try process.runHandingOverFiles() }
    }

    /// Writes a line to its standard input.
    func write(_ line: String) {
        input?.write(Data((line + "\n").utf8))
    }

    /// Closes its standard input: the end of its commands.
    func closeInput() {
        try? input?.close()
    }

    /// The next line of stdout, waiting up to `timeout`; nil at the end of the output.
    func nextLine(timeout: Duration = .seconds(10)) throws -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                lines.append(line)
                return line
            }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw TestFailure("no line within \(timeout); so far \(lines), stderr: \(stderr)") }
            var descriptor = pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            guard poll(&descriptor, 1, milliseconds) > 0 else { continue }
            let chunk = output.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }

    /// Reads lines until one equals `expected`; throws, naming the lines seen, when none does in time.
    func awaitLine(_ expected: String, timeout: Duration = .seconds(10)) throws {
        _ = try awaitLine(timeout: timeout, "\"\(expected)\"") { $0 == expected }
    }

    /// Reads lines until one is `wanted`, and returns it; throws, naming `description` and the lines seen, when
    /// none is in time.
    func awaitLine(timeout: Duration = .seconds(10), _ description: String, where wanted: (String) -> Bool) throws
        -> String
    {
        let deadline = ContinuousClock.now + timeout
        while let line = try nextLine(timeout: ContinuousClock.now.duration(to: deadline)) {
            if wanted(line) { return line }
        }
        throw TestFailure("output ended without \(description); saw \(lines)")
    }

    var stderr: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    /// Waits until standard error, a file that tells no one when it grows, holds `text`: it is read again every
    /// 20 ms until `timeout`.
    func awaitStderr(_ text: String, timeout: Duration = .seconds(10)) throws {
        let deadline = ContinuousClock.now + timeout
        while !stderr.contains(text) {
            guard ContinuousClock.now < deadline else {
                throw TestFailure("no \"\(text)\" on stderr within \(timeout): \(stderr)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// The exit status (128+N for signal N), or nil if it did not exit within `timeout`.
    func exitStatus(within timeout: Duration = .seconds(10)) -> Int32? {
        guard waitForExit(process, timeout: timeout) else { return nil }
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// Stops the whole process group, which Foundation gives each child (a command run through `sh -c` is the
    /// shell's child, and the shell's exit alone would leave it running): SIGTERM first, so that a program exits
    /// as it would on a desktop, and a sanitized one writes its report (docs/testing.md, "Sanitizers"); SIGKILL
    /// only if it is still running after a deadline.
    deinit {
        if process.isRunning {
            kill(-process.processIdentifier, SIGTERM)
            if !waitForExit(process, timeout: .seconds(10)) { kill(-process.processIdentifier, SIGKILL) }
            waitForExit(process)
        }
        try? output.close()
        try? input?.close()
    }
}

/// Runs our `netactivity` to completion against the private bus.
func netactivity(_ bus: PrivateBus, _ arguments: String...) throws -> ToolResult {
    try runTool(Paths.cli.path, arguments, bus: bus)
}
