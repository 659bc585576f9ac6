// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// How a program of ours logs: to standard error, which under systemd is the journal.
public enum StandardErrorLogging {
    private static let threshold = Atomic(Logger.Level.info.severity)
    private static let toJournal = Atomic(false)

    /// Sends every logger's messages of `level` and above to standard error: with an `sd-daemon(3)` priority prefix
    /// when standard error is the journal, and with the time, level and label otherwise, a terminal or a file.
    public static func bootstrap(level: Logger.Level) {
        toJournal.store(JournalStream.isStandardError(), ordering: .relaxed)
        threshold.store(level.severity, ordering: .relaxed)
    }

    static func logs(_ level: Logger.Level) -> Bool {
        level.severity >= threshold.load(ordering: .relaxed)
    }

    /// Writes the line in one system call, so that lines of several threads do not mix.
    static func send(_ line: LogLine) {
        var text = toJournal.load(ordering: .relaxed) ? line.forJournal : line.forTerminal()
        text.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
