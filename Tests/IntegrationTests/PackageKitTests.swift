import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness
import Testing

extension Integration {
    /// PackageKit's downloads as activities of the session's service, with the real `packagekitd` and `pkcon` on a
    /// private system bus (`PrivatePackageKit`).
    @Suite("PackageKit's downloads", .enabled(if: PrivatePackageKit.isAvailable,
                                             "needs root, packagekitd, polkitd and pkcon"))
    struct PackageKitTests {
        let packageKit: PrivatePackageKit
        let session: PrivateBus

        init() throws {
            packageKit = try PrivatePackageKit()
            session = try PrivateBus()
        }

        func sessionService(_ arguments: [String] = []) throws -> DaemonProcess {
            try DaemonProcess(bus: session, arguments: DaemonProcess.noDelays + ["--log-level", "debug"] + arguments,
                              environment: ["DBUS_SYSTEM_BUS_ADDRESS": packageKit.bus.address])
        }

        /// Waits until an `ActivitiesChanged` carries a record of PackageKit's that `matches`; returns it.
        func awaitRecord(
            _ what: String, _ listener: SignalListener, timeout: Duration = .seconds(20),
            _ matches: (ActivityDetails) -> Bool = { _ in true }
        ) throws -> ActivityDetails {
            var found: ActivityDetails?
            _ = try listener.next(timeout: timeout) { message in
                guard let report = try? ActivityChangeReport(message) else { return false }
                found = report.changed.first { $0.source == "packagekit" && matches($0) }
                return found != nil
            }
            guard let found else { throw TestFailure("no \(what) within \(timeout)") }
            return found
        }

        /// Waits until an `ActivitiesChanged` says that `id` ended.
        func awaitEnd(of id: UInt32, _ listener: SignalListener, timeout: Duration = .seconds(30)) throws {
            let ended = try listener.next(timeout: timeout) { message in
                (try? ActivityChangeReport(message))?.ended.contains(id) == true
            }
            guard ended != nil else { throw TestFailure("activity \(id) did not end within \(timeout)") }
        }

        @Test func aRefreshAndADownloadShowWithTheirProgressAndEndWhenDone() throws {
            let daemon = try sessionService()
            let listener = try SignalListener(session)
            // Each answer of the repository waits, so that the refresh lasts long enough to be seen.
            try packageKit.slow(bytesPerSecond: 0, delay: .milliseconds(400))
            let refresh = try packageKit.pkcon(["refresh"])
            let refreshing = try awaitRecord("refresh", listener) { $0.label == "Refreshing the package lists" }
            #expect(refreshing.application == "pkcon" && refreshing.user == 0, "\(refreshing)")
            #expect(refreshing.owner.hasPrefix(":") && refreshing.owner.contains(" /"))
            try awaitEnd(of: refreshing.id, listener)
            #expect(try refresh.result(within: .seconds(30)).succeeded)

            // 3 MB at 300 kB/s: ten seconds of download, with a percent and, once apt has measured it (some
            // seconds in), a rate.
            try packageKit.slow(bytesPerSecond: 300_000)
            let folder = try packageKit.downloadFolder()
            let download = try packageKit.pkcon(["download", folder.path, PrivatePackageKit.packageName])
            let downloading = try awaitRecord("download with a percent", listener) {
                $0.label.hasPrefix("Downloading") && ($0.percent ?? 0) > 0
            }
            #expect(!downloading.isCancellable && downloading.application == "pkcon", "\(downloading)")
            let measured = try awaitRecord("download with a rate", listener, timeout: .seconds(30)) { $0.id == downloading.id && $0.rate != nil }
            // PackageKit's Speed is in bits a second; apt's backend gives bytes, so this is an eighth of the
            // server's pace, and never more than it.
            #expect((measured.rate ?? 0) > 0 && (measured.rate ?? .max) <= 300_000 / 8 * 2, "\(measured)")
            // `status` lists it, marked as PackageKit's.
            let status = try runTool(Paths.cli.path, ["status"], bus: session)
            #expect(status.stdout.contains("packagekit :") && status.stdout.contains("Downloading"), "\(status)")
            try packageKit.unlimit()
            try awaitEnd(of: downloading.id, listener)
            #expect(try download.result(within: .seconds(30)).succeeded)
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(
                "\(PrivatePackageKit.packageName)_1.0_all.deb").path))
            #expect(try RawClient(session).details().isEmpty)
            // Both are in root's history, done.
            let history = try RawClient(session).call(ServiceMembers.getHistory.serviceCall(0))
            let finished = history.filter { [refreshing.id, downloading.id].contains($0.id) }
            #expect(finished.count == 2 && finished.allSatisfy { $0.source == "packagekit" && $0.outcome == "ended" },
                    "\(history)")
            #expect(!daemon.log.contains(" warning "), "\(daemon.log)")
        }

        /// PackageKit takes a transaction's `Cancel` only from the connection that created it (its
        /// `pk_transaction_method_call` refuses any other sender), so its downloads are not cancellable here: a
        /// request is refused as for any activity nobody stops, and the tray offers no Stop.
        @Test func aDownloadIsNotCancellableAndTheTrayOffersNoStop() throws {
            let daemon = try sessionService()
            let listener = try SignalListener(session)
            let watcher = try TrayProcess.watcher(session)
            let tray = try TrayProcess(session)
            let host = try TrayMenuTests.menuHost(session)
            try packageKit.refresh()
            try packageKit.slow(bytesPerSecond: 300_000)
            let download = try packageKit.pkcon(["download", try packageKit.downloadFolder().path,
                                                 PrivatePackageKit.packageName])
            let downloading = try awaitRecord("download", listener) { $0.label.hasPrefix("Downloading") }
            let asked = try dbusSend(session, ServiceMembers.requestCancel.name, "uint32:\(downloading.id)")
            #expect(asked.stderr.contains(ErrorName.notCancellable.description), "\(asked)")
            let details = try #require(try RawClient(session).details().first { $0.id == downloading.id })
            #expect(!details.isCancelRequested && !details.isCancellable)
            try watcher.awaitCall("RegisterStatusNotifierItem")
            let layout = try TrayMenuTests.awaitLayout(session, tray, host, containing: "'Downloading")
            #expect(!layout.contains("'Stop Downloading"), "\(layout)")
            try packageKit.unlimit()
            try awaitEnd(of: downloading.id, listener)
            #expect(try download.result(within: .seconds(30)).succeeded)
            #expect(daemon.isRunning)
        }

        @Test func whatRunsIsReadAgainAfterARestartAndEndsWhenPackageKitLeaves() throws {
            var daemon: DaemonProcess? = try sessionService()
            var listener = try SignalListener(session)
            try packageKit.refresh()
            try packageKit.slow(bytesPerSecond: 200_000)
            let download = try packageKit.pkcon(["download", try packageKit.downloadFolder().path,
                                                 PrivatePackageKit.packageName])
            let first = try awaitRecord("download", listener) { $0.label.hasPrefix("Downloading") }

            // A new instance of the service finds the transaction that runs.
            daemon?.send(SIGTERM)
            #expect(daemon?.exitStatus() == 0)
            daemon = nil
            listener = try SignalListener(session)
            let restarted = try sessionService()
            let again = try awaitRecord("the download, read again", listener) { $0.label.hasPrefix("Downloading") }
            #expect(again.startedAt >= first.startedAt)

            // packagekitd crashes: its transactions leave at once.
            packageKit.stop()
            try awaitEnd(of: again.id, listener)
            #expect(try RawClient(session).details().isEmpty)
            let history = try RawClient(session).call(ServiceMembers.getHistory.serviceCall(0))
            #expect(history.first { $0.id == again.id }?.outcome == "left", "\(history)")
            _ = try? download.result(within: .seconds(30))
            // And it comes back: nothing runs, nothing shows, the service is fine.
            try packageKit.start()
            try packageKit.unlimit()
            let refresh = try packageKit.pkcon(["refresh"])
            #expect(try refresh.result(within: .seconds(30)).succeeded)
            #expect(restarted.isRunning)
            try restarted.awaitLog("following PackageKit's transactions")
        }

        @Test func noSourcePackageKitFollowsNone() throws {
            let daemon = try sessionService(["--no-source", "packagekit"])
            try packageKit.slow(bytesPerSecond: 0, delay: .milliseconds(300))
            let refresh = try packageKit.pkcon(["refresh"])
            #expect(try refresh.result(within: .seconds(30)).succeeded)
            #expect(try RawClient(session).details().isEmpty)
            #expect(!daemon.log.contains("PackageKit"), "\(daemon.log)")
        }
    }
}
