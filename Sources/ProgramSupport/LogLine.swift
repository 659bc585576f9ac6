// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One message as standard error shows it.
struct LogLine {
    let level: Logger.Level
    let label: String
    let fileID: StaticString
    let message: String

    /// For the journal, which records the time and the program itself: each line starts with the priority as an
    /// `sd-daemon(3)` prefix (`<4>` for a warning), since the journal reads the prefix per line.
    var forJournal: String {
        let prefix = "<\(priority)>"
        return message.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }
            .joined(separator: "\n") + "\n"
    }

    /// For a terminal or a file, as swift-log's `StreamLogHandler` wrote it: local time, level, label and the
    /// module that logged.
    func forTerminal(at time: time_t = time(nil)) -> String {
        "\(Self.timestamp(time)) \(level.rawValue) \(label): [\(module)] \(message)\n"
    }

    /// syslog's priorities, as `sd-daemon(3)` defines the prefixes: trace has none of its own and shares debug's.
    var priority: Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    private var module: Substring {
        fileID.description.prefix { $0 != "/" }
    }

    /// ISO 8601 in local time, to the second: `2026-11-23T22:06:20+0000`.
    private static func timestamp(_ time: time_t) -> String {
        var time = time
        var parts = tm()
        localtime_r(&time, &parts)
        var text = [CChar](repeating: 0, count: 32)
        let length = strftime(&text, text.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: text.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
