import Foundation
import ProgramSupport
import Testing

extension Integration {
    @Suite("--version")
    struct VersionTests {
        @Test(arguments: [Paths.daemon, Paths.cli, Paths.tray, Paths.bench])
        func everyProgramPrintsThePackageVersion(program: URL) throws {
            let result = try runTool(program.path, ["--version"], bus: nil)
            #expect(result.status == 0)
            #expect(result.stdout == PackageVersion.current + "\n", "\(result)")
            #expect(result.stderr.isEmpty)
        }

        @Test func theVersionIsOfThreeNumbersAsDebianAndSemanticVersioningRead() {
            #expect(PackageVersion.current.range(of: #"^\d+\.\d+\.\d+$"#, options: .regularExpression) != nil)
        }
    }
}
