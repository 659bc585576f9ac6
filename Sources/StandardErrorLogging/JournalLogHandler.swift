#if canImport(Glibc)
import Glibc
#endif
public import Logging

/// Writes log lines to standard error as the systemd journal reads them: each line starts with its priority as an
/// `sd-daemon(3)` prefix (`<4>` for a warning) and has no timestamp or program name, since the journal records
/// both itself.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]

    public init() {}

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let explicit = event.metadata { fields.merge(explicit) { $1 } }
        if let error = event.error { fields["error"] = "\(error)" }
        let suffix = fields.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        let prefix = "<\(Self.priority(of: event.level))>"
        // The journal reads the prefix per line, so a message of several lines carries it on each.
        var text = "\(event.message)\(suffix)".split(separator: "\n", omittingEmptySubsequences: false)
            .map { prefix + $0 }.joined(separator: "\n") + "\n"
        text.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// syslog's priorities, as `sd-daemon(3)` defines the prefixes: trace has none of its own and shares debug's.
    static func priority(of level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
