import Foundation

enum Paths {
    /// The folder of the built products (`.build/debug`), where the test bundle itself lives.
    static let products: URL = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent()
    }()

    static let daemon = products.appendingPathComponent("netactivityd")
    static let cli = products.appendingPathComponent("netactivity")
    static let tray = products.appendingPathComponent("netactivity-tray")

    /// The repository, found from this file's place in it.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let dbusFolder = repository.appendingPathComponent("dbus")
}
