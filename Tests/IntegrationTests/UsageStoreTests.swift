import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness
import Testing

/// The file the data usage is kept in, with the real system service counting real transfers (on loopback, with
/// `--traffic-loopback`): written within the minute however often it is read, and a file it cannot use kept aside
/// as `usage.damaged` with one warning. Not one of the serialized suites: it looks only at its own apps and files.
@Suite("The data usage's file",
       .enabled(if: ApplicationCgroup.canBeMade, "counting needs root and a writable cgroup v2 tree"))
struct UsageStoreTests {
    /// A panel that asks every 20 s does not put off the minute's save: the take that writes comes within the
    /// minute (its `UsageChanged` awaited while the reads go on, up to 100 s), and a `kill -9` after it loses
    /// nothing of the transfer.
    @Test func aReaderEveryTwentySecondsPutsOffNoSave() throws {
        let bus = try PrivateBus()
        let app = try ApplicationCgroup(desktopApp: "app-gnome-reader\(getpid())", user: 4242)
        let name = "reader\(getpid())"
        var service: DaemonProcess? = try TrafficTests.systemService(bus)
        let listener = try SignalListener(bus)
        _ = try listener.readUsage()
        let server = try PacedServer()
        let body = PacedServer.body(bytesPerSecond: TrafficTests.fastRate, seconds: 2)
        let download = try server.download(bytesPerSecond: TrafficTests.fastRate, seconds: 2, in: app, as: 4242,
                                           bus: bus)
        #expect(download.exitStatus(within: .seconds(30)) == 0)

        let deadline = ContinuousClock.now + .seconds(100)
        var reads = 0
        var written: Message?
        while written == nil, ContinuousClock.now < deadline {
            let read = try runTool(Paths.cli.path, ["usage", "--system", "--json"], bus: bus)
            #expect(read.succeeded, "\(read)")
            reads += 1
            written = try listener.next(timeout: .seconds(20)) { $0.member == UsageMembers.usageChanged.name.rawValue }
        }
        #expect(written != nil, "no save within 100 s of reads every 20 s (\(reads) reads): \(service?.log ?? "")")
        #expect(reads >= 2, "the reads went on while the save was due: \(reads)")
        service?.send(SIGKILL)
        _ = service?.exitStatus(within: .seconds(10))
        service = try TrafficTests.systemService(bus)
        let rows = try RawClient(bus).call(UsageMembers.getUsage.serviceCall("", true))
        let row = try #require(rows.first { $0.application == name }, "\(rows)")
        #expect(row.received >= body, "every byte of the transfer is kept: \(row)")
        _ = service
    }

    /// A file the service cannot use, whatever is wrong with it, is kept aside with one warning; the service
    /// counts afresh beside it and writes a new file of its own.
    @Test(arguments: ["damaged", "empty", "oversized"])
    func aFileItCannotUseIsKeptAsUsageDamaged(_ kind: String) throws {
        let bus = try PrivateBus()
        let state = bus.stateDirectory
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let file = state.appendingPathComponent("usage")
        let contents: Data
        switch kind {
        case "damaged": contents = Data("NACTUSAG not what the service wrote".utf8)
        default: contents = Data()
        }
        try contents.write(to: file)
        if kind == "oversized" {
            // Sparse: past the largest file 90 full days make, costing the disk nothing.
            guard truncate(file.path, 512 * 1_048_576) == 0 else { throw TestFailure("cannot grow \(file.path)") }
        }
        let service = try TrafficTests.systemService(bus)
        try service.awaitLog("counting apps' traffic")
        let warnings = service.log.split(separator: "\n").filter { $0.contains("usage.damaged") }
        #expect(warnings.count == 1, "one warning: \(service.log)")
        let reason = ["damaged": "is damaged", "empty": "is empty", "oversized": "more than the"][kind]!
        #expect(warnings.first?.contains(reason) == true, "\(warnings)")
        let kept = state.appendingPathComponent("usage.damaged")
        #expect(FileManager.default.fileExists(atPath: kept.path) && !FileManager.default.fileExists(atPath: file.path))
        #expect(try RawClient(bus).property(ServiceMembers.traffic.name, as: String.self) == "counting")
        // Stopped, it writes a file of its own, which the next start reads without a warning.
        service.send(SIGTERM)
        #expect(service.exitStatus(within: .seconds(10)) == 0)
        let again = try TrafficTests.systemService(bus)
        try again.awaitLog("counting apps' traffic")
        #expect(!again.log.contains("usage.damaged"), "\(again.log)")
    }
}
