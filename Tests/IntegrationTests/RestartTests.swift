import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness
import Testing

extension Integration {
    /// The service keeps its activities in a state directory, and the next instance takes them over: after a
    /// SIGKILL, a SIGTERM or a `--replace`, with real clients nobody here wrote (dbus-python owners, `dbus-send`
    /// leases) and `netactivity run`.
    @Suite("A restart loses nothing")
    struct RestartTests {
        enum Restart: String, CaseIterable, Sendable {
            case kill, terminate, replace
        }

        let bus: PrivateBus
        var stateArguments: [String] { ["--state-dir", bus.stateDirectory.path] }

        init() throws {
            bus = try PrivateBus()
        }

        func startService(_ extra: [String] = [], on bus: PrivateBus? = nil) throws -> DaemonProcess {
            let bus = bus ?? self.bus
            return try DaemonProcess(bus: bus, arguments: DaemonProcess.noDelays + ["--state-dir", bus.stateDirectory.path]
                                     + extra)
        }

        /// Stops `service` the way `restart` says and starts the next instance on the same state.
        func restart(_ service: DaemonProcess, _ restart: Restart) throws -> DaemonProcess {
            switch restart {
            case .kill:
                service.send(SIGKILL)
                #expect(service.exitStatus() == SIGKILL, "killed by the signal")
                return try startService()
            case .terminate:
                service.send(SIGTERM)
                #expect(service.exitStatus() == 0)
                return try startService()
            case .replace:
                let next = try startService(["--replace"])
                #expect(service.exitStatus() == 0, "the replaced instance exits by itself")
                return next
            }
        }

        @Test(arguments: Restart.allCases)
        func thirtyActivitiesOfThreeKindsOfClientAreTakenOverWithTheirIDs(restart: Restart) throws {
            var service = try startService()
            let watcher = try RawClient(bus)
            let listener = try SignalListener(bus)
            let owners = try (0..<2).map { owner in
                try PythonOwner(bus, labels: (0..<10).map { "program \(owner) download \($0)" })
            }
            var leases: [UInt32] = []
            for index in 0..<10 {
                let begun = try dbusSend(bus, ServiceMembers.beginWithTimeout.name, "string:lease \(index)", "uint32:600")
                leases.append(try #require(replyNumber(begun), "\(begun)"))
            }
            let run = try BackgroundProcess(
                Paths.cli, ["run", "--label", "sync", "--", "/bin/sh", "-c", "echo \"id $NETACTIVITY_ID\"; exec sleep 600"],
                bus: bus)
            let runID = try #require(try run.nextLine().flatMap { UInt32($0.dropFirst("id ".count)) })
            let before = try watcher.details()
            #expect(before.count == 31)
            #expect(before.contains { $0.percent == 25 && $0.done == 300 }, "progress is part of what is kept")
            #expect(before.contains { $0.id == runID && $0.isCancellable })

            service = try self.restart(service, restart)
            #expect(try watcher.details() == before, "the same activities, ids, owners, starts, deadlines, progress")
            #expect(try watcher.visible)
            try service.awaitLog("took over 31 saved there")

            // Each owner is followed again: its End works, and its departure ends its own.
            #expect(try owners[0].end(owners[0].ids[3]) == "ended")
            owners[1].quit()
            try Integration.awaitActiveCount(30 - 10, listener)
            let left = Set(try watcher.details().map(\.id))
            #expect(left == Set(owners[0].ids.filter { $0 != owners[0].ids[3] } + leases + [runID]))
            // A lease ends by a dbus-send of the same user, and run's command stops when asked.
            #expect(try dbusSend(bus, ServiceMembers.end.name, "uint32:\(leases[0])").succeeded)
            #expect(try netactivity(bus, "cancel", "\(runID)").succeeded)
            #expect(run.exitStatus() == 128 + SIGTERM, "\(run.stderr)")
            // None of the earlier ids again: the count goes on under the file's key.
            let afterIDs = try (0..<20).map { try watcher.begin("after \($0)") }
            #expect(Set(afterIDs).isDisjoint(with: before.map(\.id)), "\(afterIDs)")
            _ = service
        }

        @Test func replaceHandsOverWithoutABlink() throws {
            let service = try startService()
            let client = try RawClient(bus)
            let listener = try SignalListener(bus)
            let ids = try (0..<5).map { try client.begin("job \($0)") }
            try listener.awaitVisibility(true)
            let oldName = try client.connection.nameOwner(of: busName)
            try listener.connection.addMatch(MatchRule(sender: Connection.busDriverName, member: "NameOwnerChanged",
                                                       arguments: [0: oldName]))

            let next = try startService(["--replace"])
            #expect(service.exitStatus() == 0)
            // Every signal the old instance sent has arrived once the bus says it has gone.
            var sawItLeave = false
            while let message = try listener.connection.nextMessage(timeout: .seconds(10)) {
                #expect(visibility(of: message) != false, "the old instance announced VisibilityChanged(false)")
                if message.member == "NameOwnerChanged" {
                    var arguments = message.arguments()
                    arguments.skip()
                    arguments.skip()
                    if try arguments.read(String.self).isEmpty {
                        sawItLeave = true
                        break
                    }
                }
            }
            #expect(sawItLeave)
            #expect(try client.visible)
            #expect(try client.list().map(\.id) == ids)
            try client.end(ids[0])
            #expect(try client.cancel() == 4)
            _ = next
        }

        @Test func anAnsweredBeginSurvivesAKillRightAfterTheAnswer() throws {
            for round in 0..<5 {
                let service = try startService()
                let client = try RawClient(bus)
                let id = try client.beginTimed("round \(round)", seconds: 600)
                service.send(SIGKILL)
                _ = service.exitStatus()
                let next = try startService()
                #expect(try client.list().map(\.id).contains(id), "round \(round)")
                next.send(SIGKILL)
                _ = next.exitStatus()
            }
        }

        @Test func onANewBusOnlyLeasesAreTakenOverEvenWhereTheOwnersNameIsTaken() throws {
            let service = try startService()
            let owner = try RawClient(bus)
            _ = try owner.begin("bound")
            let lease = try owner.beginTimed("lease", seconds: 600)
            let ownerName = owner.connection.uniqueName
            service.send(SIGKILL)
            _ = service.exitStatus()

            // The state, copied to a new bus, where another program has the old owner's unique name.
            let newBus = try PrivateBus()
            try FileManager.default.copyItem(at: bus.stateDirectory, to: newBus.stateDirectory)
            var others: [RawClient] = []
            while !others.contains(where: { $0.connection.uniqueName == ownerName }) {
                others.append(try RawClient(newBus))
                #expect(others.count < 50)
            }
            // All of them stay on the bus until the new instance has answered, which it does once it has taken over.
            try withExtendedLifetime(others) {
                let next = try startService(on: newBus)
                #expect(try others[0].list().map(\.id) == [lease])
                try next.awaitLog("took over 1 saved there on an earlier bus")
                #expect(try others[0].begin() != lease)
            }
        }

        /// With --system and no --state-dir, root's leases survive in /run/netactivity: a /run of the test's own,
        /// in a mount namespace, as the system unit's RuntimeDirectory gives it.
        @Test(.enabled(if: geteuid() == 0, "needs root, for the system bus's policy and a mount namespace"))
        func theSystemServiceKeepsItsStateInRunNetactivity() throws {
            let system = try systemLikeBus(including: [systemPolicy])
            let run = try PrivateRunFolder(bus: system)
            let start = {
                try DaemonProcess(bus: system, wrapper: run.enter, systemBus: true, defaultStateDirectory: true)
            }
            let first = try start()
            let lease = try RawClient(system).beginTimed("apt-get upgrade", seconds: 600)
            first.send(SIGKILL)
            _ = first.exitStatus()
            let second = try start()
            #expect(try RawClient(system).list().map(\.id) == [lease])
            try second.awaitLog("keeping activities across restarts in /run/netactivity; took over 1 saved there")
            let modes = try run.shell("stat -c '%a %U' /run/netactivity /run/netactivity/state", bus: system,
                                      path: "/usr/bin:/bin")
            #expect(modes.stdout == "700 root\n600 root\n", "\(modes)")
        }

        /// The system unit gives the service /run/netactivity, private and kept across stops, as systemd reads it.
        @Test func theSystemUnitKeepsRunNetactivityAcrossStops() throws {
            let folder = try temporaryDirectory("units")
            defer { try? FileManager.default.removeItem(at: folder) }
            let unit = folder.appendingPathComponent("netactivityd.service")
            try String(contentsOf: Paths.dbusFolder.appendingPathComponent("netactivityd-system.service"), encoding: .utf8)
                .replacingOccurrences(of: "@bindir@", with: Paths.daemon.deletingLastPathComponent().path)
                .write(to: unit, atomically: true, encoding: .utf8)
            let verified = try runTool("systemd-analyze", ["verify", "--man=no", "--generators=no", unit.path],
                                       bus: nil, environment: ["SYSTEMD_LOG_LEVEL": "debug"])
            let dump = Set((verified.stdout + verified.stderr).split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(verified.succeeded, "\(verified)")
            for line in ["RuntimeDirectory: netactivity", "RuntimeDirectoryPreserve: yes", "RuntimeDirectoryMode: 0700"] {
                #expect(dump.contains(line), "\(line) in \(verified)")
            }
        }

        @Test func theDirectoryIsPrivateAndTheFilesTooWhateverTheUmask() throws {
            try FileManager.default.createDirectory(at: bus.stateDirectory, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o755])
            let service = try startService()
            _ = try RawClient(bus).beginTimed("lease", seconds: 60)
            let directory = try FileManager.default.attributesOfItem(atPath: bus.stateDirectory.path)
            let file = try FileManager.default.attributesOfItem(
                atPath: bus.stateDirectory.appendingPathComponent("state").path)
            #expect(directory[.posixPermissions] as? Int == 0o700)
            #expect(file[.posixPermissions] as? Int == 0o600)
            #expect(file[.ownerAccountID] as? Int == Int(geteuid()))
            _ = service
        }

        @Test(.enabled(if: geteuid() == 0, "needs root, to give the directory to another user"))
        func aDirectoryOfAnotherUserIsRefusedAndTheServiceRunsWithoutIt() throws {
            try FileManager.default.createDirectory(at: bus.stateDirectory, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o700])
            try #require(chown(bus.stateDirectory.path, 65534, 65534) == 0, "chown: errno \(errno)")
            let service = try startService()
            try service.awaitLog("keeping no activities across restarts: \(bus.stateDirectory.path) belongs to user 65534")
            #expect(try RawClient(bus).begin() != 0)
        }

        /// Two services on two buses given one directory (a user with two sessions): the second waits for the lock a
        /// while, then runs without a state and says why; the first keeps its own.
        @Test func aDirectoryInUseByAServiceOnAnotherBusIsLeftToIt() throws {
            let first = try startService()
            let lease = try RawClient(bus).beginTimed("lease", seconds: 600)
            let otherBus = try PrivateBus()
            let second = try DaemonProcess(bus: otherBus, arguments: DaemonProcess.noDelays
                                           + ["--state-dir", bus.stateDirectory.path])
            try second.awaitLog("keeping no activities across restarts: another netactivityd keeps its state in")
            #expect(try RawClient(otherBus).list().isEmpty)
            _ = try RawClient(otherBus).begin()
            first.send(SIGKILL)
            _ = first.exitStatus()
            let third = try startService()
            #expect(try RawClient(bus).list().map(\.id) == [lease], "the second wrote nothing there")
            _ = (second, third)
        }

        @Test func withoutAPlaceTheServiceSaysSoOnceAndRunsAsBefore() throws {
            let service = try DaemonProcess(bus: bus)
            try service.awaitLog("keeping no activities across restarts: --address names a bus of its own")
            #expect(try RawClient(bus).begin() != 0)
        }

        enum Damage: String, CaseIterable, Sendable {
            case empty, cutShort, random, huge, newerVersion
        }

        /// A damaged state: the service starts (empty, or with what was whole before the damage), says what it
        /// ignored in one warning, and keeps the file aside, one copy whatever the number of starts.
        @Test(arguments: Damage.allCases)
        func aDamagedStateNeverStopsTheServiceAndIsKeptAsideOnce(damage: Damage) throws {
            // A real state of three leases, which any bus takes over.
            let first = try startService()
            let client = try RawClient(bus)
            let leases = try (0..<3).map { try client.beginTimed("lease \($0)", seconds: 600) }
            first.send(SIGKILL)
            _ = first.exitStatus()
            let file = bus.stateDirectory.appendingPathComponent("state")
            let whole = try Data(contentsOf: file)

            let random = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/urandom"))
            func randomBytes(_ count: Int) -> Data { random.readData(ofLength: count) }
            let (damaged, expectedLeases, warning): (Data, [UInt32], String) = switch damage {
            case .empty: (Data(), [], "the file is empty")
            case .cutShort: (whole.prefix(whole.count - 7), Array(leases.prefix(2)), "a record cut short")
            case .random: (randomBytes(65536), [], "not a netactivity state file")
            case .huge: (whole + randomBytes(10_000_000), leases, "bytes from there")
            case .newerVersion:
                (Data("NACTIVST".utf8) + Data([2, 0, 0, 0]) + randomBytes(100), [], "from a newer netactivityd")
            }
            for start in 0..<2 {
                try damaged.write(to: file)
                let service = try startService()
                #expect(try client.list().map(\.id) == expectedLeases, "\(damage)")
                let warnings = service.log.split(separator: "\n").filter { $0.contains(" warning ") }
                #expect(warnings.count == 1, "\(service.log)")
                #expect(warnings.first?.contains(warning) == true, "\(warnings)")
                #expect(warnings.first?.contains("kept it as state.damaged") == true, "\(warnings)")
                #expect(try Data(contentsOf: bus.stateDirectory.appendingPathComponent("state.damaged")) == damaged)
                #expect(try FileManager.default.contentsOfDirectory(atPath: bus.stateDirectory.path).sorted()
                        == ["state", "state.damaged"], "start \(start)")
                // It serves, and what it writes now reads whole at the next start.
                _ = try client.beginTimed("after damage", seconds: 600)
                service.send(SIGTERM)
                #expect(service.exitStatus() == 0)
            }
            // The second start read the damage again: the lease begun after the first is in neither.
            let clean = try startService()
            #expect(try client.list().count == expectedLeases.count + 1)
            #expect(!clean.log.contains(" warning "), "\(clean.log)")
        }
    }
}

/// A program of dbus-python's that begins activities with `labels`, reports progress on the first two, and ends
/// one when told (`end ID` on its input), calling the service by its well-known name each time, as a program that
/// knows nothing of restarts does.
final class PythonOwner {
    let process: BackgroundProcess
    let name: String
    let ids: [UInt32]

    init(_ bus: PrivateBus, labels: [String]) throws {
        process = try BackgroundProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", """
            import dbus, sys
            bus = dbus.bus.BusConnection(sys.argv[1])
            def call(method, signature, *arguments):
                return bus.call_blocking('org.example.NetworkActivity', '/org/example/NetworkActivity',
                                         'org.example.NetworkActivity', method, signature, arguments)
            ids = [int(call('Begin', 's', label)) for label in sys.argv[2:]]
            call('SetTransfer', 'utt', ids[0], 300, 1200)
            call('SetProgress', 'uu', ids[1], 45)
            print(bus.get_unique_name(), *ids, flush=True)
            for line in sys.stdin:
                command, _, argument = line.strip().partition(' ')
                if command != 'end':
                    break
                try:
                    call('End', 'u', int(argument))
                    print('ended', flush=True)
                except dbus.DBusException as error:
                    print(error.get_dbus_name(), flush=True)
            """, bus.address] + labels, bus: bus, takesInput: true)
        let line = try process.nextLine() ?? ""
        let fields = line.split(separator: " ")
        name = fields.first.map(String.init) ?? ""
        ids = fields.dropFirst().compactMap { UInt32($0) }
        guard name.hasPrefix(":"), ids.count == labels.count else {
            throw TestFailure("the dbus-python owner said \"\(line)\": \(process.stderr)")
        }
    }

    /// Ends `id`; returns what it said: `ended` or the error's name.
    func end(_ id: UInt32) throws -> String? {
        process.write("end \(id)")
        return try process.nextLine()
    }

    /// Closes its connection by exiting.
    func quit() {
        process.closeInput()
        _ = process.exitStatus()
    }
}
