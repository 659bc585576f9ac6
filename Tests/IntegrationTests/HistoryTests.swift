import DBusKit
import Foundation
import NetworkActivityClient
import NetworkActivityInterface
import ServiceHarness
import Testing

extension Integration {
    /// The history (`GetHistory`, `ClearHistory`, `HistoryChanged`): each outcome made by real callers nobody here
    /// wrote (`dbus-send`, dbus-python) and `netactivity run`, read back through `dbus-send`, the command and the
    /// library; kept across a SIGKILL and a `--replace`, set aside when damaged, and off with `--history 0`.
    @Suite("What finished, and how")
    struct HistoryTests {
        let bus: PrivateBus

        init() throws {
            bus = try PrivateBus()
        }

        func startService(_ extra: [String] = []) throws -> DaemonProcess {
            try DaemonProcess(bus: bus, arguments: DaemonProcess.noDelays + ["--state-dir", bus.stateDirectory.path]
                              + extra)
        }

        /// Waits until the caller's history holds `count` entries: reads it, and again at each `HistoryChanged`.
        @discardableResult
        func awaitHistory(_ count: Int, _ client: RawClient, timeout: Duration = .seconds(15)) throws
            -> [ActivityDetails]
        {
            let deadline = ContinuousClock.now + timeout
            while true {
                let entries = try client.call(ServiceMembers.getHistory.serviceCall(0))
                if entries.count >= count { return entries }
                let left = deadline - ContinuousClock.now
                guard left > .zero,
                      try client.awaitSignal(timeout: left, { ServiceMembers.historyChanged.matches($0) }) != nil
                else { throw TestFailure("the history has \(entries.count) entries, not \(count), after \(timeout)") }
            }
        }

        /// One of each outcome, in this order: ended, expired, left, stopped, reset.
        func makeEachOutcome(_ watcher: RawClient) throws {
            let lease = try #require(replyNumber(try dbusSend(bus, ServiceMembers.beginWithTimeout.name, "string:lease", "uint32:600")))
            #expect(try dbusSend(bus, ServiceMembers.end.name, "uint32:\(lease)").succeeded)
            _ = try #require(replyNumber(try dbusSend(bus, ServiceMembers.beginWithTimeout.name, "string:short lease", "uint32:1")))
            try awaitHistory(2, watcher)
            let quitter = try PythonOwner(bus, labels: ["download", "upload"])
            quitter.quit()
            try awaitHistory(4, watcher)
            let run = try BackgroundProcess(
                Paths.cli, ["run", "--label", "sync", "--", "/bin/sh", "-c", "echo \"id $NETACTIVITY_ID\"; exec sleep 600"],
                bus: bus)
            let runID = try #require(try run.nextLine().flatMap { UInt32($0.dropFirst("id ".count)) })
            #expect(try dbusSend(bus, ServiceMembers.requestCancel.name, "uint32:\(runID)").succeeded)
            _ = run.exitStatus()
            try awaitHistory(5, watcher)
            let held = try PythonOwner(bus, labels: ["backup", "mail"])
            #expect(replyNumber(try dbusSend(bus, ServiceMembers.reset.name)) == 2)
            try awaitHistory(7, watcher)
            held.quit()
        }

        @Test func eachOutcomeIsReadBackByDbusSendTheCommandAndTheLibrary() async throws {
            let service = try startService()
            let watcher = try RawClient(bus)
            try watcher.connection.addMatch(ServiceMembers.historyChanged.rule(sender: ServiceNames.busName))
            try makeEachOutcome(watcher)
            let entries = try awaitHistory(7, watcher)
            // Newest first; the two of one caller that end together come in either order.
            let endings = entries.map { $0.endedAt ?? 0 }
            #expect(endings == endings.sorted(by: >), "newest first")
            #expect(entries.map(\.outcome) == ["reset", "reset", "stopped", "left", "left", "expired", "ended"])
            let outcomes = Dictionary(entries.map { ($0.label, $0.outcome ?? "") }, uniquingKeysWith: { $1 })
            #expect(outcomes == ["lease": "ended", "short lease": "expired", "download": "left", "upload": "left",
                                 "sync": "stopped", "backup": "reset", "mail": "reset"])
            let download = try #require(entries.first { $0.label == "download" })
            #expect(download.done == 300 && download.total == 1200 && download.percent == 25)
            #expect(download.application == "python3" && download.processID != nil && download.user == getuid())
            #expect(entries.allSatisfy { ($0.endedAt ?? 0) >= $0.startedAt && $0.startedAt > 0 })

            let sent = try dbusSend(bus, ServiceMembers.getHistory.name, "uint32:2")
            #expect(sent.succeeded, "\(sent)")
            #expect(sent.stdout.components(separatedBy: "string \"outcome\"").count == 3, "two entries: \(sent.stdout)")
            #expect(sent.stdout.contains("string \"reset\""))

            let command = try runTool(Paths.cli.path, ["history", "--json", "--address", bus.address], bus: bus)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(command.stdout.utf8)) as? [[String: Any]],
                                    "\(command)")
            #expect(json.compactMap { $0["outcome"] as? String } == entries.compactMap(\.outcome?.rawValue))
            #expect(json.first { $0["label"] as? String == "download" }?["done"] as? Int == 300)
            let table = try runTool(Paths.cli.path, ["history", "--limit", "3", "--address", bus.address], bus: bus)
            let lines = table.stdout.split(separator: "\n")
            #expect(lines.count == 4 && lines[0].hasPrefix("ENDED"), "\(table)")
            #expect(lines.last?.hasSuffix("stopped") == true, "\(table)")
            // Debian's default locale is the C locale under another name: its dates are written as the C locale's.
            for locale in ["C", "C.UTF-8"] {
                let dated = try runTool(Paths.cli.path, ["history", "--limit", "1", "--address", bus.address], bus: bus,
                                        environment: ["LANG": locale])
                let row = dated.stdout.split(separator: "\n").dropFirst().first.map(String.init) ?? ""
                #expect(row.contains(#/^\d{4}-\d\d-\d\d \d\d:\d\d /#), "LANG=\(locale): \(dated)")
            }

            let client = try NetworkActivityClient(address: bus.address)
            let library = try await client.history(limit: 10)
            #expect(library.map(\.outcome) == [.reset, .reset, .stopped, .left, .left, .expired, .ended])
            #expect(library.map(\.activity.label) == entries.map(\.label))
            #expect(library.first { $0.activity.label == "sync" }?.activity.isCancelRequested == true)
            #expect(try await client.clearHistory() == 7)
            #expect(try await client.history().isEmpty)
            _ = service
        }

        @Test func theHistoryOutlivesAKillAndAReplace() throws {
            var service = try startService()
            let watcher = try RawClient(bus)
            try watcher.connection.addMatch(ServiceMembers.historyChanged.rule(sender: ServiceNames.busName))
            let owner = try PythonOwner(bus, labels: ["download", "upload"])
            #expect(try owner.end(owner.ids[0]) == "ended")
            owner.quit()
            let before = try awaitHistory(2, watcher)

            service.send(SIGKILL)
            #expect(service.exitStatus() == SIGKILL)
            service = try startService()
            #expect(try watcher.call(ServiceMembers.getHistory.serviceCall(0)) == before, "after a SIGKILL")

            let next = try startService(["--replace"])
            #expect(service.exitStatus() == 0)
            #expect(try watcher.call(ServiceMembers.getHistory.serviceCall(0)) == before, "after a --replace")
            let more = try #require(replyNumber(try dbusSend(bus, ServiceMembers.beginWithTimeout.name, "string:after", "uint32:60")))
            #expect(try dbusSend(bus, ServiceMembers.end.name, "uint32:\(more)").succeeded)
            #expect(try awaitHistory(3, watcher).first?.label == "after")
            _ = next
        }

        @Test func noneIsKeptWithHistoryZero() throws {
            let service = try startService(["--history", "0"])
            let client = try RawClient(bus)
            try client.end(try client.begin("not kept"))
            #expect(try client.call(ServiceMembers.getHistory.serviceCall(0)).isEmpty)
            #expect(try client.call(ServiceMembers.clearHistory.serviceCall()) == 0)
            let refused = try runTool(Paths.daemon.path, ["--history", "1001"],
                                      bus: nil)
            #expect(refused.status == 64 && refused.stderr.contains("--history"), "\(refused)")
            _ = service
        }

        @Test func aDamagedHistoryIsSetAsideNotMisread() throws {
            var service = try startService()
            let watcher = try RawClient(bus)
            try watcher.connection.addMatch(ServiceMembers.historyChanged.rule(sender: ServiceNames.busName))
            for label in ["first", "second"] {
                let id = try #require(replyNumber(try dbusSend(bus, ServiceMembers.beginWithTimeout.name, "string:\(label)", "uint32:60")))
                #expect(try dbusSend(bus, ServiceMembers.end.name, "uint32:\(id)").succeeded)
                try awaitHistory(label == "first" ? 1 : 2, watcher)
            }
            service.send(SIGTERM)
            #expect(service.exitStatus() == 0)
            // The last record is the second entry: one byte of its label changes, and its checksum no longer holds.
            let file = bus.stateDirectory.appendingPathComponent("state")
            var bytes = [UInt8](try Data(contentsOf: file))
            let label = Array("second".utf8)
            let at = try #require((0...(bytes.count - label.count)).last { Array(bytes[$0..<$0 + label.count]) == label })
            bytes[at] = UInt8(ascii: "S")
            try Data(bytes).write(to: file)

            service = try startService()
            try service.awaitLog("kept it as state.damaged")
            let entries = try watcher.call(ServiceMembers.getHistory.serviceCall(0))
            #expect(entries.map(\.label) == ["first"], "what came before the damage, and nothing misread")
            #expect(FileManager.default.fileExists(atPath: bus.stateDirectory.appendingPathComponent("state.damaged").path))
        }

        @Test func historyChangedComesAtMostOnceASecond() throws {
            let service = try startService()
            let listener = try RawClient(bus)
            try listener.connection.addMatch(ServiceMembers.historyChanged.rule(sender: ServiceNames.busName))
            let client = try RawClient(bus)
            try client.end(try client.begin("one"))
            let first = try #require(try listener.awaitSignal { ServiceMembers.historyChanged.matches($0) })
            let firstAt = ContinuousClock.now
            try client.end(try client.begin("two"))
            try client.end(try client.begin("three"))
            _ = try #require(try listener.awaitSignal { ServiceMembers.historyChanged.matches($0) })
            #expect(ContinuousClock.now - firstAt >= .milliseconds(900), "the second waits for the second to pass")
            #expect(try listener.call(ServiceMembers.getHistory.serviceCall(0)).count == 3, "both ends in one signal")
            _ = (service, first)
        }
    }
}

extension Integration {
    /// On the system bus each Unix user reads and clears only its own history; root reads everyone's. The callers
    /// are `nobody` and a throwaway user, running `dbus-send`.
    @Suite("The history of each user on the system bus",
           .enabled(if: geteuid() == 0, "needs root to run callers as other users"))
    struct SystemHistoryTests {
        let bus: PrivateBus
        let service: DaemonProcess
        let other: ThrowawayUser

        init() throws {
            bus = try systemLikeBus(including: [systemPolicy])
            service = try DaemonProcess(bus: bus, arguments: DaemonProcess.noDelays + ["--history", "2"], systemBus: true)
            other = try ThrowawayUser()
        }

        /// Begins and ends a timed activity as `user`.
        func finish(_ label: String, as user: String) throws {
            let begun = try dbusSend(as: user, bus, ServiceMembers.beginWithTimeout.name, "string:\(label)", "uint32:60")
            let id = try #require(replyNumber(begun), "\(begun)")
            let ended = try dbusSend(as: user, bus, ServiceMembers.end.name, "uint32:\(id)")
            #expect(ended.succeeded, "\(ended)")
        }

        func labels(_ result: ToolResult) -> [String] {
            result.stdout.components(separatedBy: "string \"label\"").dropFirst().compactMap { part in
                part.split(separator: "\"").dropFirst().first.map(String.init)
            }
        }

        @Test func eachUserKeepsItsOwnNewestAndRootReadsThemAll() throws {
            let root = try RawClient(bus)
            try root.connection.addMatch(ServiceMembers.historyChanged.rule(sender: ServiceNames.busName))
            for label in ["a1", "a2", "a3"] { try finish(label, as: other.name) }
            try finish("n1", as: "nobody")
            // Ended before the replies to the Ends: each is in the history once its End is answered.
            let mine = try dbusSend(as: other.name, bus, ServiceMembers.getHistory.name, "uint32:0")
            #expect(labels(mine) == ["a3", "a2"], "the limit of 2 per user: \(mine)")
            let nobodys = try dbusSend(as: "nobody", bus, ServiceMembers.getHistory.name, "uint32:0")
            #expect(labels(nobodys) == ["n1"], "\(nobodys)")
            let everyone = try root.call(ServiceMembers.getHistory.serviceCall(0))
            #expect(everyone.map(\.label) == ["n1", "a3", "a2"], "root reads every user's, newest first")
            #expect(try root.call(ServiceMembers.getHistory.serviceCall(1)).map(\.label) == ["n1"])

            let cleared = try dbusSend(as: other.name, bus, ServiceMembers.clearHistory.name)
            #expect(replyNumber(cleared) == 2, "\(cleared)")
            #expect(labels(try dbusSend(as: other.name, bus, ServiceMembers.getHistory.name, "uint32:0")).isEmpty)
            #expect(labels(try dbusSend(as: "nobody", bus, ServiceMembers.getHistory.name, "uint32:0")) == ["n1"],
                    "another user's history stays")
            #expect(try root.call(ServiceMembers.clearHistory.serviceCall()) == 0, "root clears only root's")
            #expect(try root.call(ServiceMembers.getHistory.serviceCall(0)).map(\.label) == ["n1"])
            _ = service
        }
    }
}
