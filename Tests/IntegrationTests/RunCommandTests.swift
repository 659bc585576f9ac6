import Foundation
import ServiceHarness
import Testing

extension Integration {
    @Suite("netactivity run")
    struct RunCommandTests {
        let bus: PrivateBus
        let service: DaemonProcess

        init() throws {
            bus = try PrivateBus()
            service = try DaemonProcess(bus: bus)
        }

        @Test func theCommandRunsAsOneActivityOfNetactivityLabelledWithItsName() throws {
            let result = try netactivity(bus, "run", "--", "/bin/sh", "-c", "\(Paths.cli.path) status --json; echo $PPID")
            #expect(result.status == 0, "\(result)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            try #require(lines.count == 2, "\(result)")
            let activities = try #require(try jsonObject(lines[0])["activities"] as? [[String: Any]])
            #expect(activities.count == 1)
            #expect(activities.first?["label"] as? String == "sh")
            #expect((activities.first?["process"] as? NSNumber)?.stringValue == lines[1], "the owner is netactivity, the parent")
            #expect(try RawClient(bus).list().isEmpty, "\(service.log)")
        }

        /// Each argument arrives whole, spaces, empty ones and UTF-8 included.
        @Test func everyArgumentReachesTheLabelAndTheCommandAsGiven() throws {
            let script = "\(Paths.cli.path) status --json; printf '%s|' \"$@\""
            let result = try netactivity(bus, "run", "--label", "Größe  two", "--", "/bin/sh", "-c", script, "sh",
                                         "a b", "", "ü")
            #expect(result.status == 0, "\(result)")
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            try #require(lines.count == 2, "\(result)")
            let activities = try #require(try jsonObject(lines[0])["activities"] as? [[String: Any]])
            #expect(activities.first?["label"] as? String == "Größe  two")
            #expect(lines[1] == "a b||ü|")
        }

        @Test func theCommandsExitStatusIsPassedOnAndTheActivityEnds() throws {
            let result = try netactivity(bus, "run", "--label", "fails", "--", "/bin/sh", "-c", "exit 3")
            #expect(result.status == 3, "\(result)")
            #expect(try RawClient(bus).list().isEmpty)
        }

        @Test(arguments: [SIGKILL, SIGTERM])
        func aCommandKilledBySignalNGives128PlusN(signal: Int32) throws {
            let result = try netactivity(bus, "run", "--", "/bin/sh", "-c", "kill -\(signal) $$")
            #expect(result.status == 128 + signal, "\(result)")
            #expect(try RawClient(bus).list().isEmpty)
        }

        /// coreutils' `env`, and the arguments that have it start netactivity as a terminal does, every signal at its
        /// default. The suite may itself run with SIGINT ignored (started by `&` in a script), which netactivity
        /// rightly keeps for its command (below).
        static let env = URL(fileURLWithPath: "/usr/bin/env")
        static func netactivityWithDefaultSignals(_ arguments: String...) -> [String] {
            ["--default-signal", Paths.cli.path] + arguments
        }

        @Test(arguments: [("INT", SIGINT), ("TERM", SIGTERM), ("HUP", SIGHUP)])
        func aSignalSentToNetactivityIsPassedOnToTheCommand(name: String, signal: Int32) throws {
            let run = try BackgroundProcess(Self.env, Self.netactivityWithDefaultSignals(
                "run", "--", "/bin/sh", "-c", "trap 'echo got \(name); exit 7' \(name); echo ready; while :; do sleep 0.05; done"
            ), bus: bus)
            #expect(try run.nextLine() == "ready")
            run.send(signal)
            #expect(try run.nextLine() == "got \(name)")
            #expect(run.exitStatus() == 7, "\(run.stderr)")
            #expect(try RawClient(bus).list().isEmpty)
        }

        @Test func killingNetactivityEndsTheActivityThroughTheBus() throws {
            let listener = try SignalListener(bus)
            let run = try BackgroundProcess(Paths.cli, [
                "run", "--label", "orphaned", "--", "/bin/sh", "-c", "echo $$; exec sleep 60",
            ], bus: bus)
            let child = try #require(try run.nextLine().flatMap { Int32($0) })
            defer { kill(child, SIGKILL) }
            try listener.awaitVisibility(true)
            #expect(try RawClient(bus).list().map(\.label) == ["orphaned"])
            run.send(SIGKILL)
            try listener.awaitVisibility(false)
            #expect(try RawClient(bus).list().isEmpty)
            #expect(kill(child, 0) == 0, "the command itself is left running")
        }

        @Test func withoutTheServiceTheCommandRunsAfterOneWarning() throws {
            let bus = try PrivateBus()  // without the service
            let result = try netactivity(bus, "run", "--", "/bin/sh", "-c", "echo ran")
            #expect(result.status == 0)
            #expect(result.stdout == "ran\n")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result)")
            #expect(result.stderr.hasPrefix("netactivity: warning: running /bin/sh without an activity: "
                                            + "org.freedesktop.DBus.Error.ServiceUnknown: "), "\(result)")
        }

        @Test func strictRefusesToRunTheCommandWithoutTheService() throws {
            let bus = try PrivateBus()  // without the service
            let result = try netactivity(bus, "run", "--strict", "--", "/bin/sh", "-c", "echo ran")
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.split(separator: "\n") == [
                "netactivity: org.freedesktop.DBus.Error.ServiceUnknown: "
                    + "The name org.example.NetworkActivity was not provided by any .service files",
            ], "\(result)")
        }

        @Test func aCommandThatIsNotThereExits127AndEndsTheActivity() throws {
            let result = try netactivity(bus, "run", "--", "no-such-command-here")
            #expect(result.status == 127)
            #expect(result.stderr == "netactivity: no-such-command-here: No such file or directory\n")
            #expect(try RawClient(bus).list().isEmpty)
        }

        @Test func theCommandGetsItsArgumentsAndNoneOfTheSignalsNetactivityBlocks() throws {
            let result = try runTool(Self.env.path, Self.netactivityWithDefaultSignals(
                "run", "--", "/bin/sh", "-c", "grep -E '^Sig(Blk|Ign)' /proc/self/status; echo \"$1\"", "sh", "two words"
            ), bus: bus)
            #expect(result.status == 0, "\(result)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            try #require(lines.count == 3, "\(result)")
            #expect(lines[0] == "SigBlk:\t0000000000000000")
            let ignored = try #require(UInt64(lines[1].dropFirst("SigIgn:\t".count), radix: 16), "\(result)")
            for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD] {
                #expect(ignored & (1 << UInt64(signal - 1)) == 0, "signal \(signal) is ignored: \(lines[1])")
            }
            #expect(lines[2] == "two words")
        }

        @Test func aSignalIgnoredByNetactivitysParentStaysIgnoredInTheCommand() throws {
            let result = try runTool("nohup", [Paths.cli.path, "run", "--", "/bin/grep", "^SigIgn", "/proc/self/status"],
                                     bus: bus)
            #expect(result.status == 0, "\(result)")
            let ignored = try #require(UInt64(result.stdout.dropFirst("SigIgn:\t".count).prefix(16), radix: 16),
                                       "\(result)")
            #expect(ignored & (1 << UInt64(SIGHUP - 1)) != 0, "nohup's SIGHUP is not ignored: \(result.stdout)")
        }
    }
}

/// A JSON object from one line of output.
func jsonObject(_ line: String) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
        throw TestFailure("not a JSON object: \(line)")
    }
    return object
}
