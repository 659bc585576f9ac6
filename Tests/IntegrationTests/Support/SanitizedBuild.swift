import Foundation

/// The sanitizer the programs under test were built with, as `Tests/sanitizers.sh` says (docs/testing.md): such a
/// build keeps freed memory aside and shadows the rest, so what a test measures of memory would not be the
/// program's.
enum SanitizedBuild {
    static let sanitizer = ProcessInfo.processInfo.environment["NETACTIVITY_SANITIZER"]
    static var isSanitized: Bool { sanitizer != nil }
}
