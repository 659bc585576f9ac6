import Foundation
import ServiceHarness
import Testing

extension Integration {
    /// The README's example of the Swift library, taken from the README itself, must compile against the library
    /// as built: `swiftc -typecheck` with the build's modules, the names the example leaves to the reader
    /// (`download()`) declared after it.
    @Suite("README: the library's example")
    struct ReadmeExampleTests {
        @Test func theExampleCompiles() throws {
            let example = try readmeCodeBlock(after: "## The Swift library")
            #expect(example.contains("import NetworkActivityClient"))
            let folder = try temporaryDirectory("readme-example")
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("main.swift")
            try (example + "\n\nfunc download() async throws -> [UInt8] { [] }\n")
                .write(to: file, atomically: true, encoding: .utf8)

            let dbusHeaders = try runTool("pkg-config", ["--cflags-only-I", "dbus-1"], bus: nil)
            let headerFlags = dbusHeaders.stdout.split(whereSeparator: \.isWhitespace).flatMap { ["-Xcc", String($0)] }
            let sources = Paths.repository.appendingPathComponent("Sources")
            let result = try runTool(try swiftCompiler(), [
                "-typecheck", "-I", Paths.products.appendingPathComponent("Modules").path,
                "-I", sources.appendingPathComponent("CDBus").path,
                "-I", sources.appendingPathComponent("CGlibcExtras").path, file.path,
            ] + headerFlags, bus: nil, timeout: .seconds(120))
            #expect(result.succeeded, "\(result)")
        }
    }
}

/// The `swiftc` on this test's `PATH`, the toolchain that built the library.
private func swiftCompiler() throws -> String {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for folder in path.split(separator: ":") {
        let candidate = "\(folder)/swiftc"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    throw TestFailure("no swiftc on PATH (\(path))")
}
