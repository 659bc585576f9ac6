public import Foundation

/// The folder the running program was built into (`.build/debug`, `.build/release`), where the project's other
/// programs are built too: the tests' bundle and the benchmark both find `netactivityd` there.
public enum BuiltProducts {
    public static let folder: URL = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent()
    }()

    /// The program `name` in that folder.
    public static func program(_ name: String) -> URL {
        folder.appendingPathComponent(name)
    }
}
