public import Logging

/// How a program of ours logs: to standard error, which under systemd is the journal.
public enum StandardErrorLogging {
    /// Sends every logger's messages of `level` and above to standard error: with an `sd-daemon(3)` priority prefix
    /// when standard error is the journal, and as swift-log's `StreamLogHandler` writes them (time, level, label)
    /// otherwise, a terminal or a file.
    public static func bootstrap(level: Logger.Level) {
        let toJournal = JournalStream.isStandardError()
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler = toJournal ? JournalLogHandler() : StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
