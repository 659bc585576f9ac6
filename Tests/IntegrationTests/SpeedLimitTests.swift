import Foundation
import ServiceHarness
import Testing
@testable import TrafficCounters

/// Speed limits in the kernel: apps' TCP transfers across a real interface (`VethLink`), each app in a cgroup of
/// the test's own, held to the rates its entry in the held map says by the counting programs attached above them.
@Suite("Speed limits", .serialized,
       .enabled(if: ApplicationCgroup.canBeMade, "speed limits need root and a writable cgroup v2 tree"))
struct SpeedLimitTests {
    static let seconds = 12

    /// A download and an upload held to their limits, between 0.8× and 1.05× over 12 s, while an app without a
    /// limit beside them moves several times as much.
    @Test func theKernelHoldsADownloadAndAnUploadToTheirLimitsAndNothingElse() throws {
        let bus = try PrivateBus()
        let link = try VethLink()
        let server = try BulkServer(address: VethLink.serverAddress, namespace: link.onServerSide)
        let downloader = try ApplicationCgroup(unitName: "downloader.service")
        let uploader = try ApplicationCgroup(unitName: "uploader.service")
        let free = try ApplicationCgroup(unitName: "free.service")
        var attached: [TrafficCounters] = []
        for cgroup in [downloader, uploader, free] {
            attached.append(try TrafficCounters(cgroupRoot: cgroup.unit.deletingLastPathComponent().path,
                                                threshold: 1 << 40, countsLoopback: false))
        }
        let down: UInt64 = 2_000_000, up: UInt64 = 1_000_000
        #expect(attached[0].hold(cgroupID: try downloader.id, Holding(receiveRate: down)))
        #expect(attached[1].hold(cgroupID: try uploader.id, Holding(sendRate: up)))
        let transfers = [
            try server.transfer(.down, seconds: Self.seconds, in: downloader, namespace: link.onAppSide, bus: bus),
            try server.transfer(.up, seconds: Self.seconds, in: uploader, namespace: link.onAppSide, bus: bus),
            try server.transfer(.down, seconds: Self.seconds, in: free, namespace: link.onAppSide, bus: bus),
        ]
        var moved: [UInt64] = []
        for transfer in transfers {
            let line = try transfer.nextLine(timeout: .seconds(Self.seconds + 60))
            moved.append(try #require(line.flatMap { UInt64($0) }, "\(String(describing: line))"))
        }
        let downRatio = Double(moved[0]) / Double(down) / Double(Self.seconds)
        let upRatio = Double(moved[1]) / Double(up) / Double(Self.seconds)
        print("down \(downRatio) up \(upRatio) free \(Double(moved[2]) / Double(Self.seconds) / 1e6) MB/s")
        #expect(downRatio >= 0.8 && downRatio <= 1.05, "the download moved \(downRatio)× its limit")
        #expect(upRatio >= 0.8 && upRatio <= 1.05, "the upload moved \(upRatio)× its limit")
        #expect(moved[2] > 5 * down * UInt64(Self.seconds), "the app without a limit moved \(moved[2]) bytes")
    }
}
