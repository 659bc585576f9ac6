import Foundation
import ProgramSupport
import Testing

extension Integration {
    @Suite("--version")
    struct VersionTests {
        @Test(arguments: ["netactivityd", "netactivity", "netactivity-tray", "netactivity-bench"])
        func everyProgramPrintsThePackageVersion(program: String) throws {
            let result = try runTool(Paths.products.appendingPathComponent(program).path, ["--version"], bus: nil)
            #expect(result.status == 0)
            #expect(result.stdout == PackageVersion.current + "\n", "\(result)")
            #expect(result.stderr.isEmpty)
        }

        @Test func theVersionIsOfThreeNumbersAsDebianAndSemanticVersioningRead() {
            #expect(PackageVersion.current.range(of: #"^\d+\.\d+\.\d+$"#, options: .regularExpression) != nil)
        }
    }
}
