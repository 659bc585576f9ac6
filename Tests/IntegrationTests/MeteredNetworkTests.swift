import Foundation
import ServiceHarness
import Testing

/// Rules for metered networks and the data saver, kept by the real system service's kernel programs on networks
/// that the real NetworkManager manages (`PrivateNetworkManager`): "Phone hotspot", metered, and "Office LAN",
/// not; the service follows NetworkManager's devices, so that a connection made metered, or no longer, holds or
/// lets go of the apps on it at once.
@Suite("Metered networks", .serialized,
       .enabled(if: ApplicationCgroup.canBeMade && PrivateNetworkManager.isInstalled,
                "needs root, a writable cgroup v2 tree and NetworkManager"))
struct MeteredNetworkTests {
    struct Scene {
        let bus: PrivateBus
        let network: PrivateNetworkManager
        let service: DaemonProcess
        let hotspot: PacedServer
        let office: PacedServer
        let person: ThrowawayUser
        let folder: URL

        init() throws {
            bus = try PrivateNetworkManager.systemBus()
            network = try PrivateNetworkManager(bus: bus, networks: [DataUsageTests.hotspot, DataUsageTests.office])
            service = try DataUsageTests.systemService(bus, network)
            hotspot = try PacedServer(address: DataUsageTests.hotspot.serverAddress, namespace: network.inInternet)
            office = try PacedServer(address: DataUsageTests.office.serverAddress, namespace: network.inInternet)
            person = try ThrowawayUser()
            folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("netactivity-metered-\(getpid())-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            chmod(folder.path, 0o777)
            try service.awaitLog(") is metered")
        }

        /// A download at 1 MB/s for `seconds` by an instance of the person's app `app` (in a cgroup of its own)
        /// from `server`, into a file of the folder's.
        func download(_ app: String, from server: PacedServer, seconds: Double) throws
            -> (process: BackgroundProcess, file: String, cgroup: ApplicationCgroup) {
            let cgroup = try ApplicationCgroup(desktopApp: "app-gnome-\(app)", user: try person.uid)
            let file = folder.appendingPathComponent("\(app)-\(UUID().uuidString.prefix(8))").path
            let process = try server.download(bytesPerSecond: 1_000_000, seconds: seconds, in: cgroup,
                                              as: try person.uid, namespace: network.inMachine, output: file,
                                              bus: bus)
            return (process, file, cgroup)
        }

        func netactivity(_ arguments: String...) throws -> ToolResult {
            let result = try SpeedLimitTests.netactivity(as: person, bus, arguments)
            #expect(result.succeeded, "\(arguments): \(result)\n\(service.log.suffix(2_000))")
            return result
        }
    }

    /// What a new instance may move before the service finds its cgroup and holds it, as for speed limits (a
    /// tenth of a second, `docs/netactivityd.md`): 0.15 s at 1 MB/s.
    static let unheldStart: UInt64 = 150_000

    /// Whether the file grows past `bytes` within 30 s.
    static func grows(_ path: String, past bytes: UInt64) -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline, DataPlanTests.size(of: path) <= bytes { usleep(50_000) }
        return DataPlanTests.size(of: path) > bytes
    }

    /// An app paused on metered networks moves nothing on the hotspot (but its first packets, before the service
    /// holds the new instance), and goes on as anywhere else on the
    /// office's LAN; once the person makes the hotspot's connection no longer metered, it goes on there too.
    @Test func anAppPausedOnMeteredNetworksMovesNothingThereAndGoesOnOnceTheNetworkIsNoLongerMetered() throws {
        let scene = try Scene()
        let app = "steam\(getpid())"
        _ = try scene.netactivity("limit", app, "--metered", "pause")
        let limits = try scene.netactivity("limits")
        #expect(limits.stdout.contains("METERED") && limits.stdout.contains("paused"), "\(limits)")

        let listener = try SignalListener(scene.bus)
        try listener.readActivities()
        let held = try scene.download(app, from: scene.hotspot, seconds: 60)
        let office = try scene.download(app, from: scene.office, seconds: 3)
        // Its row on the LAN says what holds it on metered networks, as `status --json` gives it.
        let row = try PauseTests.awaitActivity(of: office.cgroup, listener) { $0.limitOnMetered != nil }
        #expect(row.limitOnMetered == "pause" && row.limitDown == nil && row.limitOverPlan == nil, "\(row)")
        #expect(office.process.exitStatus(within: .seconds(30)) == 0, "the download on the office's LAN: \(office.process.stderr)")
        #expect(DataPlanTests.size(of: office.file) == PacedServer.body(bytesPerSecond: 1_000_000, seconds: 3))
        #expect(DataPlanTests.awaitStill(held.file) <= Self.unheldStart, "the paused app moved on the metered hotspot")

        try scene.network.setMetered(DataUsageTests.hotspot, false)
        try scene.service.awaitLog(") is no longer metered")
        #expect(Self.grows(held.file, past: 1_000_000), "the app stayed paused once the hotspot was not metered: \(scene.service.log.suffix(2_000))")
        held.process.send(SIGTERM)
        _ = (held.cgroup, office.cgroup)
    }

    /// The saver pauses every app of the person's on a metered network but the one their rule allows there;
    /// turned off, it lets them go on. It is the person's alone: `saver` says on to them, off to another user.
    @Test func theSaverPausesEveryAppOnAMeteredNetworkButThoseAllowedAndLetsThemGoOnOnceOff() throws {
        let scene = try Scene()
        let (podcasts, maps) = ("podcasts\(getpid())", "maps\(getpid())")
        _ = try scene.netactivity("limit", maps, "--metered", "allow")
        _ = try scene.netactivity("saver", "on")
        #expect(try scene.netactivity("saver").stdout == "on\n")
        let stranger = try ThrowawayUser()
        #expect(try SpeedLimitTests.netactivity(as: stranger, scene.bus, "saver").stdout == "off\n")

        let held = try scene.download(podcasts, from: scene.hotspot, seconds: 60)
        let allowed = try scene.download(maps, from: scene.hotspot, seconds: 1)
        #expect(allowed.process.exitStatus(within: .seconds(30)) == 0, "the allowed app: \(allowed.process.stderr)")
        #expect(DataPlanTests.size(of: allowed.file) == PacedServer.body(bytesPerSecond: 1_000_000, seconds: 1))
        #expect(DataPlanTests.awaitStill(held.file) <= Self.unheldStart, "the saver let an app move on the metered hotspot")

        _ = try scene.netactivity("saver", "off")
        #expect(Self.grows(held.file, past: 1_000_000), "the app stayed paused once the saver was off")
        held.process.send(SIGTERM)
        _ = (held.cgroup, allowed.cgroup)
    }
}
