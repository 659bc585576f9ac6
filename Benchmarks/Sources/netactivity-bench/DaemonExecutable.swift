// SPDX-License-Identifier: Apache-2.0
import Foundation
import ServiceHarness

/// Where the programs measured are: `NETACTIVITY_PROGRAMS`, or the release build of the repository the benchmark
/// runs from (`.build/release`, which `bash packaging/build-release.sh` makes).
enum MeasuredPrograms {
    static let folder = URL(fileURLWithPath: ProcessInfo.processInfo.environment["NETACTIVITY_PROGRAMS"]
                                ?? ".build/release")

    static func program(_ name: String) -> URL {
        folder.appendingPathComponent(name)
    }
}

/// The daemon the benchmark measures: the one named on the command line, or the release build's.
enum DaemonExecutable {
    /// It must exist.
    static func find(_ named: String?) throws -> URL {
        let executable = named.map(URL.init(fileURLWithPath:)) ?? MeasuredPrograms.program("netactivityd")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw BenchFailure("no netactivityd at \(executable.path): build it first (bash packaging/build-release.sh), "
                               + "or name one with --daemon")
        }
        return executable
    }

    /// Whether the daemon at `executable` has the option `flag`, by its `--help`: a build from before the option
    /// is measured too, to compare.
    static func accepts(_ flag: String, _ executable: URL) -> Bool {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--help"]
        let output = Pipe()
        process.standardOutput = output
        guard (try? process.run()) != nil else { return false }
        let help = output.fileHandleForReading.readDataToEndOfFile()
        waitForExit(process)
        return String(decoding: help, as: UTF8.self).contains(flag)
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
