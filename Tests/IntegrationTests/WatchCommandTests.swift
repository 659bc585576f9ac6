import Foundation
import ServiceHarness
import Testing

extension Integration {
    @Suite("netactivity watch")
    struct WatchCommandTests {
        /// What one format prints while the service is stopped, running with nothing to show, and showing one
        /// activity labelled "fetch".
        struct Expected: CustomTestStringConvertible, Sendable {
            let format: String
            let stopped: String
            let runningIdle: String
            let active: String
            var testDescription: String { format }
        }

        static let formats = [
            Expected(format: "plain", stopped: "idle 0", runningIdle: "idle 0", active: "active 1"),
            Expected(format: "json",
                     stopped: #"{"count":0,"labels":[],"running":false,"visible":false}"#,
                     runningIdle: #"{"count":0,"labels":[],"running":true,"visible":false}"#,
                     active: #"{"count":1,"labels":["fetch"],"running":true,"visible":true}"#),
            Expected(format: "waybar",
                     stopped: #"{"alt":"idle","class":"idle","text":"","tooltip":""}"#,
                     runningIdle: #"{"alt":"idle","class":"idle","text":"","tooltip":""}"#,
                     active: #"{"alt":"active","class":"active","text":"⇅ 1","tooltip":"fetch"}"#),
            Expected(format: "polybar", stopped: "", runningIdle: "", active: "⇅ 1"),
            Expected(format: "i3blocks", stopped: #"{"full_text":""}"#, runningIdle: #"{"full_text":""}"#,
                     active: #"{"full_text":"⇅ 1"}"#),
        ]

        @Test(arguments: formats)
        func watchFollowsTheServiceAcrossAStopAndARestart(expected: Expected) throws {
            let bus = try PrivateBus()
            let watch = try BackgroundProcess(Paths.cli, ["watch", "--format", expected.format], bus: bus)
            #expect(try watch.nextLine() == expected.stopped, "it prints the state at once, idle without a service")

            // Stopped first as systemd stops it, then killed as in a crash, which sends no signal of its own.
            for stop in [SIGTERM, SIGKILL] {
                let service = try DaemonProcess(bus: bus)
                if expected.runningIdle != expected.stopped { try watch.awaitLine(expected.runningIdle) }
                let client = try RawClient(bus)
                _ = try client.begin("fetch")
                try watch.awaitLine(expected.active)
                service.send(stop)
                #expect(service.exitStatus() != nil)
                try watch.awaitLine(expected.stopped)
            }
            #expect(watch.process.isRunning)
        }

        /// With --show-idle, the panel formats keep a grey "⇅ 0" instead of hiding.
        @Test(arguments: [
            ("waybar", #"{"alt":"idle","class":"idle","text":"⇅ 0","tooltip":"No network activity"}"#),
            ("polybar", "%{F#9E9E9E}⇅ 0%{F-}"),
            ("i3blocks", ##"{"color":"#9E9E9E","full_text":"⇅ 0"}"##),
        ])
        func showIdleKeepsAGreyIdleLook(format: String, idle: String) throws {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus)
            let watch = try BackgroundProcess(Paths.cli, ["watch", "--format", format, "--show-idle"], bus: bus)
            #expect(try watch.nextLine() == idle)
            let client = try RawClient(bus)
            _ = try client.begin("fetch")
            #expect(try watch.nextLine()?.contains("⇅ 1") == true)
            _ = (service, client)
        }

        @Test func eachChangeIsOneLineAndARepeatedStateIsNotPrintedAgain() throws {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus)
            let watch = try BackgroundProcess(Paths.cli, ["watch"], bus: bus)
            #expect(try watch.nextLine() == "idle 0")
            let client = try RawClient(bus)
            let first = try client.begin()
            try watch.awaitLine("active 1")
            let second = try client.begin()
            #expect(try watch.nextLine() == "active 2")
            try client.end(second)
            #expect(try watch.nextLine() == "active 1")
            try client.end(first)
            try watch.awaitLine("idle 0")
            #expect(zip(watch.lines, watch.lines.dropFirst()).allSatisfy { $0 != $1 }, "\(watch.lines)")
            #expect(service.isRunning)
        }

        @Test func watchExitsWithAClearErrorWhenTheBusGoesAway() throws {
            let bus = try PrivateBus()
            let watch = try BackgroundProcess(Paths.cli, ["watch"], bus: bus)
            #expect(try watch.nextLine() == "idle 0")
            bus.kill()
            #expect(watch.exitStatus() == 1)
            #expect(watch.stderr == "netactivity: org.freedesktop.DBus.Error.Disconnected: "
                                   + "the connection to the bus was lost\n")
        }
    }
}
