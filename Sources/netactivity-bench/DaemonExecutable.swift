import Foundation
import ServiceHarness

/// The daemon the benchmark measures: the one named on the command line, or the one built beside this program.
enum DaemonExecutable {
    /// It must exist.
    static func find(_ named: String?) throws -> URL {
        let executable = named.map(URL.init(fileURLWithPath:)) ?? BuiltProducts.program("netactivityd")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw BenchFailure("no netactivityd at \(executable.path): build it first (swift build -c release), "
                               + "or name one with --daemon")
        }
        return executable
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
