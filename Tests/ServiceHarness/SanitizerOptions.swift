import Foundation

/// The sanitizers' options of the test process, which `Tests/sanitizers.sh` sets, for every program a test starts:
/// such a program's environment otherwise holds only what the test gives it, and the daemon, the command and the
/// tray of a sanitized build must report where the script looks, with its suppressions (docs/testing.md).
public enum SanitizerOptions {
    public static let environment: [String: String] = ProcessInfo.processInfo.environment.filter {
        ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"].contains($0.key)
    }
}
