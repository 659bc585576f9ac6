import Foundation
import ServiceHarness
import Testing

extension Integration {
    /// The harness itself: the programs it starts, once gone, leave nothing open in the test process (docs/testing.md,
    /// "The rules every test keeps"), which runs thousands of them.
    @Suite("The harness")
    struct HarnessTests {
        static func openFiles() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
        }

        @Test func programsStartedAndGoneLeaveNoFileOpen() throws {
            // Left open, each round would keep four or more: the tool's output and errors, the bus's log and the
            // background program's errors (251 more in all, measured so).
            let rounds = 60
            let before = try Self.openFiles()
            for _ in 0..<rounds {
                let bus = try PrivateBus()
                #expect(try runTool("/bin/echo", ["hello"], bus: bus).stdout == "hello\n")
                let echo = try BackgroundProcess(URL(fileURLWithPath: "/bin/echo"), ["hello"], bus: bus)
                #expect(try echo.nextLine() == "hello")
                #expect(echo.exitStatus() == 0)
                bus.kill()
            }
            // Other suites in this process open files of their own meanwhile, for a while.
            let grown = try Self.openFiles() - before
            #expect(grown < rounds, "\(grown) more files open after \(rounds) rounds")
        }
    }
}
