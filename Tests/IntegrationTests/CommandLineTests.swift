import Foundation
import ServiceHarness
import Testing

extension Integration {
    @Suite("netactivity begin, end, status and reset")
    struct CommandLineTests {
        let bus: PrivateBus
        let service: DaemonProcess

        init() throws {
            bus = try PrivateBus()
            service = try DaemonProcess(bus: bus)
        }

        @Test func beginPrintsAnIdThatASecondInvocationEnds() throws {
            let begun = try netactivity(bus, "begin", "--timeout", "600", "--label", "backup")
            #expect(begun.status == 0, "\(begun)")
            let id = try #require(UInt32(begun.stdout.trimmingCharacters(in: .newlines)), "\(begun)")
            let listed = try RawClient(bus).list()
            #expect(listed.map(\.id) == [id])
            #expect(listed.first?.label == "backup")
            #expect(listed.first.map { ($0.deadline ?? 0) > $0.startedAt } == true)

            #expect(try netactivity(bus, "end", "\(id)").status == 0)
            #expect(try RawClient(bus).list().isEmpty)
        }

        @Test func anErrorFromTheServiceIsOneLineWithItsNameAndExitStatus1() throws {
            let ended = try netactivity(bus, "end", "41")
            #expect(ended.status == 1)
            #expect(ended.stdout.isEmpty)
            #expect(ended.stderr == "netactivity: org.example.NetworkActivity.Error.UnknownActivity: "
                                   + "no activity with id 41 is active\n")
            let begun = try netactivity(bus, "begin", "--timeout", "0")
            #expect(begun.status == 1)
            #expect(begun.stderr.hasPrefix("netactivity: org.freedesktop.DBus.Error.InvalidArgs: "), "\(begun)")
            #expect(begun.stderr.split(separator: "\n").count == 1)
        }

        @Test func statusJSONTellsVisibilityCountAndEachActivityWithItsOwnersProcess() throws {
            let client = try RawClient(bus)
            let download = try client.begin("download")
            let begun = try netactivity(bus, "begin", "--timeout", "300", "--label", "backup")
            let backup = try #require(UInt32(begun.stdout.trimmingCharacters(in: .newlines)))

            let result = try netactivity(bus, "status", "--json")
            #expect(result.status == 0, "\(result)")
            let status = try jsonObject(result.stdout.trimmingCharacters(in: .newlines))
            #expect(status["visible"] as? Bool == true)
            #expect(status["active-count"] as? Int == 2)
            // The key's name from before the keys were all kebab-case still works.
            #expect(status["active_count"] as? Int == 2 && status["traffic_reason"] as? String == status["traffic-reason"] as? String)
            let activities = try #require(status["activities"] as? [[String: Any]])
            try #require(activities.count == 2)
            let first = activities[0], second = activities[1]
            #expect(first["id"] as? Int == Int(download))
            #expect(first["label"] as? String == "download")
            #expect(first["owner"] as? String == client.name)
            #expect(first["process"] as? Int == Int(getpid()))
            // The test runs in no application's unit: its application is its command's name.
            #expect(first["app"] as? String == ownCommandName())
            let now = UInt64(Date().timeIntervalSince1970 * 1_000_000)
            #expect((first["started"] as? UInt64).map { now - $0 < 60_000_000 } == true, "\(first)")
            #expect(first["deadline"] as? Int == 0, "0 is no deadline, as on the bus")
            #expect(second["id"] as? Int == Int(backup))
            #expect(second["label"] as? String == "backup")
            #expect(second["process"] as? Int == 0, "the owner, netactivity begin, has left the bus")
            let started = try #require(second["started"] as? UInt64), deadline = try #require(second["deadline"] as? UInt64)
            #expect(deadline - started == 300_000_000, "\(second)")
        }

        @Test func statusPrintsATableForPeople() throws {
            let client = try RawClient(bus)
            let id = try client.begin("download")
            let result = try netactivity(bus, "status")
            #expect(result.status == 0)
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            try #require(lines.count == 7, "\(result)")
            #expect(Array(lines.prefix(4)) == ["visible: yes", "active: 1", "traffic: off (--traffic is not given)", ""])
            #expect(lines[4].split(separator: " ") ==
                ["ID", "AGE", "LEFT", "PID", "APP", "OWNER", "PROGRESS", "STOP", "LABEL"])
            let row = lines[5].split(separator: " ").map(String.init)
            #expect(row == ["\(id)", "0s", "-", "\(getpid())", ownCommandName() ?? "", client.name, "-", "-",
                            "download"], "\(result)")
        }

        @Test func resetEndsEveryonesActivitiesAndPrintsHowMany() throws {
            let client = try RawClient(bus)
            _ = try client.begin()
            _ = try netactivity(bus, "begin", "--timeout", "60")
            let result = try netactivity(bus, "reset")
            #expect(result.stdout == "2\n", "\(result)")
            #expect(try client.list().isEmpty)
        }

        @Test func addressChoosesTheBusOverTheEnvironment() throws {
            let elsewhere = try netactivity(bus, "status", "--address", "unix:path=\(bus.directory.path)/no-bus-here")
            #expect(elsewhere.status == 1)
            #expect(elsewhere.stderr.hasPrefix("netactivity: org.freedesktop.DBus.Error."), "\(elsewhere)")
            #expect(try netactivity(bus, "status", "--address", bus.address).status == 0)
            let both = try netactivity(bus, "status", "--system", "--address", bus.address)
            #expect(both.status == 64)
            #expect(both.stderr.contains("--system and --address exclude each other."))
        }

        @Test(arguments: [[], ["run"], ["begin"], ["end"], ["status"], ["watch"], ["reset"]])
        func everyCommandExplainsItselfWithHelp(command: [String]) throws {
            let bus = try PrivateBus()  // without the service
            let result = try runTool(Paths.cli.path, command + ["--help"], bus: bus)
            #expect(result.status == 0)
            #expect(result.stdout.contains("USAGE: netactivity \(command.first ?? "")"), "\(result)")
        }
    }
}

/// This test process's command name, as the kernel tells it.
func ownCommandName() -> String? {
    (try? String(contentsOfFile: "/proc/self/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines)
}
