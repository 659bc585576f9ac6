// SPDX-License-Identifier: Apache-2.0
/// A program's log, by the name of the program or of its part that writes it: messages of the level set with
/// `StandardErrorLogging.bootstrap(level:)` and above go to standard error.
///
/// Ours, not swift-log's: its `Logger` keeps a task-local logger, so that every program using it links Swift's
/// concurrency runtime and libdispatch, 35 page faults at each of the daemon's starts when that was measured (the
/// history of docs/performance.md); our programs need only lines on standard error.
public struct Logger: Sendable {
    /// syslog's levels, as `--log-level` names them, from the least severe.
    public enum Level: String, CaseIterable, Comparable, Sendable {
        case trace, debug, info, notice, warning, error, critical

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.severity < rhs.severity }

        var severity: Int { Self.allCases.firstIndex(of: self)! }
    }

    public let label: String

    public init(label: String) {
        self.label = label
    }

    public func trace(_ message: @autoclosure () -> String, fileID: StaticString = #fileID) {
        log(.trace, message, fileID)
    }

    public func debug(_ message: @autoclosure () -> String, fileID: StaticString = #fileID) {
        log(.debug, message, fileID)
    }

    public func info(_ message: @autoclosure () -> String, fileID: StaticString = #fileID) {
        log(.info, message, fileID)
    }

    public func notice(_ message: @autoclosure () -> String, fileID: StaticString = #fileID) {
        log(.notice, message, fileID)
    }

    public func warning(_ message: @autoclosure () -> String, fileID: StaticString = #fileID) {
        log(.warning, message, fileID)
    }

    public func error(_ message: @autoclosure () -> String, fileID: StaticString = #fileID) {
        log(.error, message, fileID)
    }

    public func critical(_ message: @autoclosure () -> String, fileID: StaticString = #fileID) {
        log(.critical, message, fileID)
    }

    private func log(_ level: Level, _ message: () -> String, _ fileID: StaticString) {
        guard StandardErrorLogging.logs(level) else { return }
        StandardErrorLogging.send(LogLine(level: level, label: label, fileID: fileID, message: message()))
    }
}
