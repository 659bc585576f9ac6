import Foundation
import ServiceHarness
import Testing

extension Integration {
    /// `netactivity run`'s activity reports progress through `$NETACTIVITY_ID`, and `netactivity cancel` stops its
    /// command as a user's Ctrl-C would.
    @Suite("netactivity run, cancelled")
    struct RunCancellationTests {
        let bus: PrivateBus
        let service: DaemonProcess

        init() throws {
            bus = try PrivateBus()
            service = try DaemonProcess(bus: bus)
        }

        /// Starts `run` with `options` around a shell that runs `setup`, prints its activity's id and loops.
        func startRun(_ options: [String] = [], setup: String = ":") throws -> (BackgroundProcess, UInt32) {
            let script = "\(setup) && echo \"id $NETACTIVITY_ID\"; while :; do sleep 0.05; done"
            let run = try BackgroundProcess(Paths.cli, ["run", "--label", "sync"] + options + ["--", "/bin/sh", "-c", script],
                                            bus: bus)
            let line = try #require(try run.nextLine(), "\(run.stderr)")
            let id = try #require(UInt32(line.dropFirst("id ".count)), "\(line)")
            return (run, id)
        }

        @Test func theCommandReportsProgressThroughItsEnvironmentAndACancelStopsIt() throws {
            let (run, id) = try startRun(
                setup: "\(Paths.cli.path) progress \"$NETACTIVITY_ID\" --done 300 --total 1200")
            let details = try #require(try RawClient(bus).details().first { $0.id == id })
            #expect(details.percent == 25 && details.done == 300 && details.total == 1200)
            #expect(details.isCancellable, "run offers its activity for stopping")

            let cancelled = try netactivity(bus, "cancel", "\(id)")
            #expect(cancelled.succeeded, "\(cancelled)")
            #expect(run.exitStatus() == 128 + SIGTERM, "the command's own status: \(run.stderr)")
            #expect(run.stderr.components(separatedBy: "was cancelled").count == 2, "said once: \(run.stderr)")
            #expect(try RawClient(bus).list().isEmpty, "the activity ends with the command")
        }

        @Test func aCommandThatIgnoresSIGTERMIsKilledAfterKillAfter() throws {
            let (run, id) = try startRun(["--kill-after", "1"], setup: "trap '' TERM")
            #expect(try netactivity(bus, "cancel", "\(id)").succeeded)
            #expect(run.exitStatus() == 128 + SIGKILL, "\(run.stderr)")
            #expect(run.stderr.contains("did not stop within 1 s; sending it SIGKILL"), "\(run.stderr)")
        }

        @Test func noCancelKeepsTheActivityFromBeingStopped() throws {
            let (run, id) = try startRun(["--no-cancel"])
            let refused = try netactivity(bus, "cancel", "\(id)")
            #expect(refused.stderr.contains("org.example.NetworkActivity.Error.NotCancellable"), "\(refused)")
            #expect(try RawClient(bus).details().first { $0.id == id }?.isCancellable == false)
            run.send(SIGTERM)
            #expect(run.exitStatus() == 128 + SIGTERM)
        }

        @Test func progressRefusesWhatIsOutOfRangeAndAskingANonCancellableActivityToStopFails() throws {
            let owner = try RawClient(bus)
            let id = try owner.beginTimed("lease", seconds: 600)
            let tooMuch = try netactivity(bus, "progress", "\(id)", "101")
            #expect(tooMuch.status == 1 && tooMuch.stderr.contains("InvalidArgs"), "\(tooMuch)")
            let both = try netactivity(bus, "progress", "\(id)", "10", "--done", "5")
            #expect(both.status != 0 && both.stderr.contains("not both"), "\(both)")
            #expect(try netactivity(bus, "progress", "\(id)", "--done", "5").succeeded)
            #expect(try owner.details().first?.done == 5)
            let status = try netactivity(bus, "status")
            #expect(status.stdout.contains("5 B"), "\(status)")
            let notCancellable = try netactivity(bus, "cancel", "\(id)")
            #expect(notCancellable.stderr.contains("NotCancellable"), "\(notCancellable)")
        }
    }
}
