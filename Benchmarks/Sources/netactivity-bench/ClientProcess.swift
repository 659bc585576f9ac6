// SPDX-License-Identifier: Apache-2.0
import Foundation
import ServiceHarness

/// A child process of this program, talked to in lines: commands on its standard input, events read from its
/// standard output as they come.
final class ClientProcess {
    let process: Process
    private let input: FileHandle
    /// Kept so that its descriptor stays open.
    private let outputHandle: FileHandle
    private let output: Int32
    private var buffer: [UInt8] = []
    private(set) var reachedEnd = false

    init(arguments: [String]) throws {
        let toChild = Pipe()
        let fromChild = Pipe()
        process = Process()
        process.executableURL = BuiltProducts.program("netactivity-bench")
        process.arguments = arguments
        process.standardInput = toChild
        process.standardOutput = fromChild
        try process.run()
        // Foundation has closed the pipes' other ends here, and every other descriptor in the child: the end of
        // the output is the child's exit.
        input = toChild.fileHandleForWriting
        outputHandle = fromChild.fileHandleForReading
        output = outputHandle.fileDescriptor
    }

    var processID: pid_t { process.processIdentifier }

    func send(_ command: String) {
        try? input.write(contentsOf: Data((command + "\n").utf8))
    }

    /// The complete lines that can be read now, without waiting; `reachedEnd` once the child has exited.
    func availableLines() -> [Substring] {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 0) > 0 else { break }
            let count = read(output, &chunk, chunk.count)
            guard count > 0 else {
                reachedEnd = true
                break
            }
            buffer += chunk[..<count]
        }
        guard let lastNewline = buffer.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        let text = String(decoding: buffer[...lastNewline], as: UTF8.self)
        buffer.removeSubrange(...lastNewline)
        return text.split(separator: "\n")
    }

    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
    }

    /// Waits until any of `clients` has something to read, or `timeout` passes.
    static func awaitOutput(of clients: [ClientProcess], timeout: Duration) {
        var pollers = clients.map { pollfd(fd: $0.output, events: Int16(POLLIN), revents: 0) }
        _ = poll(&pollers, nfds_t(pollers.count), Int32(clamping: max(timeout.components.seconds * 1000
            + timeout.components.attoseconds / 1_000_000_000_000_000, 0)))
    }
}
