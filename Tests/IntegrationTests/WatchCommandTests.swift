import NetworkActivityInterface
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

            /// Whether `line` shows the activity "fetch": json's record of it carries its owner and start time,
            /// which change from run to run.
            func isActive(_ line: String) -> Bool {
                guard format == "json" else { return line == active }
                return line.hasPrefix(#"{"activities":[{"#) && line.contains(#""label":"fetch""#)
                    && line.hasSuffix(#"}],"# + active.dropFirst())
            }
        }

        static let formats = [
            Expected(format: "plain", stopped: "idle 0", runningIdle: "idle 0", active: "active 1"),
            Expected(format: "json",
                     stopped: #"{"activities":[],"count":0,"labels":[],"running":false,"visible":false}"#,
                     runningIdle: #"{"activities":[],"count":0,"labels":[],"running":true,"visible":false}"#,
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
                _ = try watch.awaitLine(expected.active) { expected.isActive($0) }
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
            _ = try watch.awaitLine("⇅ 1") { $0.contains("⇅ 1") }
            _ = (service, client)
        }

        /// Progress reported with `SetTransfer` and a cancel request reach every format, from `ActivitiesChanged`.
        @Test func progressAndAStopReachEveryFormat() throws {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus)
            let formats = ["plain", "json", "waybar", "polybar", "i3blocks"]
            var watches: [String: BackgroundProcess] = [:]
            for format in formats {
                watches[format] = try BackgroundProcess(Paths.cli, ["watch", "--format", format], bus: bus)
            }
            let owner = try RawClient(bus)
            let id = try owner.begin("fetch")
            _ = try owner.call(ServiceMembers.setCancellable.name) { $0.append(id); $0.append(true) }
            _ = try owner.call(ServiceMembers.setTransfer.name) { $0.append(id); $0.append(UInt64(450_000)); $0.append(UInt64(1_000_000)) }

            _ = try watches["plain"]!.awaitLine("active 1 · 45 %")
            _ = try watches["polybar"]!.awaitLine("⇅ 1 · 45 %")
            _ = try watches["i3blocks"]!.awaitLine(#"{"full_text":"⇅ 1 · 45 %"}"#)
            let waybar = try watches["waybar"]!.awaitLine("a waybar line at 45 %") { $0.contains(#""percentage":45"#) }
            #expect(waybar == #"{"alt":"active","class":"active","percentage":45,"text":"⇅ 1 · 45 %","tooltip":"fetch — 45 %"}"#)
            let json = try watches["json"]!.awaitLine("a json line at 45 %") { $0.contains(#""percent":45"#) }
            let record = try #require(
                (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["activities"] as? [[String: Any]])
            #expect(record.count == 1)
            #expect(record.first?["id"] as? Int == Int(id) && record.first?["owner"] as? String == owner.name)
            #expect(record.first?["done"] as? Int == 450_000 && record.first?["total"] as? Int == 1_000_000)
            #expect(record.first?["cancellable"] as? Bool == true && record.first?["cancel-requested"] as? Bool == false)
            #expect(record.first?["started"] as? Int ?? 0 > 0 && record.first?["process"] as? Int ?? 0 > 0)
            #expect(record.first?["app"] as? String == ownCommandName(), "the owner is this test, in no app's unit")

            let someoneElse = try RawClient(bus)
            _ = try someoneElse.call(ServiceMembers.requestCancel.name) { $0.append(id) }
            _ = try watches["waybar"]!.awaitLine("the class stopping") { $0.contains(#""class":"stopping""#) }
            _ = try watches["json"]!.awaitLine("cancel-requested") { $0.contains(#""cancel-requested":true"#) }
            _ = (service, owner, someoneElse)
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
