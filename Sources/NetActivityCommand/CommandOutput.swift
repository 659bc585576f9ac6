// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import NetworkActivityClient

/// Runs `body`; a D-Bus error becomes one line on stderr, its name and message, and exit status 1.
func reportingFailure<Result>(
    _ body: () async throws(NetworkActivityError) -> Result
) async throws(ExitCode) -> Result {
    do {
        return try await body()
    } catch {
        printError("\(error)")
        throw ExitCode.failure
    }
}

/// `reportingFailure` for calls that block.
func reportingFailure<Result>(_ body: () throws(NetworkActivityError) -> Result) throws(ExitCode) -> Result {
    do {
        return try body()
    } catch {
        printError("\(error)")
        throw ExitCode.failure
    }
}

/// Writes `netactivity: <message>` to stderr.
func printError(_ message: String) {
    _ = write(toDescriptor: STDERR_FILENO, "netactivity: \(message)\n")
}

/// Writes one line to stdout unbuffered, so that a panel reading a pipe sees it at once; false when stdout is
/// closed (the reader went away).
func printLine(_ line: String) -> Bool {
    write(toDescriptor: STDOUT_FILENO, line + "\n")
}

private func write(toDescriptor fd: Int32, _ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
