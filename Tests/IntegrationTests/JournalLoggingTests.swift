import NetworkActivityInterface
import Foundation
import ServiceHarness
import Testing

extension Integration {
    /// Under systemd, standard error is the journal (`JOURNAL_STREAM` names it): each line then starts with its
    /// priority as `sd-daemon(3)` defines it, and has no timestamp, which the journal adds itself.
    @Suite("Logging to the journal")
    struct JournalLoggingTests {
        @Test func eachLineOfTheDaemonCarriesItsPriority() throws {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus, logToJournal: true)
            #expect(try !dbusSend(bus, ServiceMembers.end.name, "uint32:41").succeeded, "an unbalanced End, which is logged as a warning")
            service.send(SIGTERM)
            #expect(service.exitStatus() == 0)

            let lines = service.log.split(separator: "\n").map(String.init)
            #expect(lines.contains { $0.hasPrefix("<6>owning org.example.NetworkActivity as :") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("<4>") && $0.contains("ended activity 41, which is not active") },
                    "\(lines)")
            #expect(lines.contains { $0.hasPrefix("<6>stopping on signal") }, "\(lines)")
            #expect(lines.allSatisfy { $0.range(of: #"^<[2-7]>[^<]"#, options: .regularExpression) != nil }, "\(lines)")
        }

        /// `JOURNAL_STREAM` is inherited by children whose stderr goes elsewhere; there it is not the journal.
        @Test func aJournalStreamThatIsNotStandardErrorLeavesTheLinesAsTheyAre() throws {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus, environment: ["JOURNAL_STREAM": "1:1"])
            service.send(SIGTERM)
            #expect(service.exitStatus() == 0)
            let owning = try #require(service.log.split(separator: "\n").first { $0.contains("owning") })
            #expect(!owning.hasPrefix("<"))
            #expect(owning.range(of: #"^\d{4}-\d\d-\d\dT.* info netactivityd:"#, options: .regularExpression) != nil,
                    "a timestamp, the level and the label, as on a terminal: \(owning)")
        }

        @Test func theTrayMarksItsLinesToo() throws {
            // No panel: a tray that stays in the tray while idle says at once, at info, that it waits for one.
            let bus = try PrivateBus()
            let log = try touch(bus.directory.appendingPathComponent("tray.log"))
            let tray = Process()
            tray.executableURL = Paths.tray
            tray.arguments = ["--idle", "show", "--log-level", "info"]
            tray.environment = ["PATH": "/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": bus.address,
                                "JOURNAL_STREAM": try journalStream(of: log)].merging(SanitizerOptions.environment) { $1 }
            tray.standardError = try FileHandle(forWritingTo: log)
            tray.standardOutput = FileHandle.nullDevice
            try tray.runHandingOverFiles()
            defer { kill(tray.processIdentifier, SIGKILL); _ = waitForExit(tray, timeout: .seconds(5)) }

            let deadline = ContinuousClock.now + .seconds(10)
            var text = ""
            while !text.contains("waiting for a panel"), ContinuousClock.now < deadline {
                try Task.checkCancellation()
                usleep(20_000)
                text = try String(contentsOf: log, encoding: .utf8)
            }
            #expect(text.split(separator: "\n").contains {
                $0.hasPrefix("<6>") && $0.contains("no StatusNotifierWatcher serves on the bus; waiting for a panel")
            }, "\(text)")
        }
    }
}
