import Foundation
import ServiceHarness
import Testing

extension Integration {
    /// The desktops people run now, beside this machine's Debian 12 ones: Debian 13's GNOME Shell 48 and Plasma 6,
    /// and Debian testing's newest GNOME, each from a root that `mmdebstrap` makes once from Debian's archive and
    /// that later runs reuse (`Tests/Rendering/debian-root.sh`), entered in a private mount namespace with `chroot`.
    /// The release build runs there: it carries its Swift runtime. The package's extension is checked in throwaway
    /// copies of Debian 13's root and of this machine, which stay as they were.
    ///
    /// Debian unstable's GNOME moves daily: its check runs only when asked, with
    /// `NETACTIVITY_DEBIAN_UNSTABLE=1 bash Tests/run.sh --filter DebianDesktopTests` (docs/testing.md).
    @Suite("On screen, in today's desktops from Debian's roots", .serialized,
           .enabled(if: geteuid() == 0, "needs root, for chroot and the mount namespace"))
    struct DebianDesktopTests {
        static let rootScript = Paths.repository.appendingPathComponent("Tests/Rendering/debian-root.sh").path
        /// A root is made in 1-3 minutes the first time; a run in it takes well under one.
        static let timeout = Duration.seconds(600)

        /// The release build: Tests/run.sh's, or one of the suite's own in `.build-deb` (which DebianPackageTests
        /// uses too) when the suite runs alone.
        static let release: Result<URL, TestFailure> = {
            if let release = Paths.releaseProducts { return .success(release) }
            do {
                let built = try runTool("/bin/bash", [Paths.packagingFolder.appendingPathComponent("build-release.sh").path,
                                                      "--scratch-path", Paths.repository.appendingPathComponent(".build-deb").path],
                                        bus: nil, environment: ProcessInfo.processInfo.environment, timeout: .seconds(1800))
                guard built.succeeded, let path = built.stdout.split(separator: "\n").last else {
                    return .failure(TestFailure("build-release.sh failed: \(built)"))
                }
                return .success(URL(fileURLWithPath: String(path)))
            } catch {
                return .failure(TestFailure("build-release.sh did not run: \(error)"))
            }
        }()

        /// The scripts' environment: a PATH, and the roots' cache when it is not the default.
        static let environment = ["PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"].merging(
            ProcessInfo.processInfo.environment.filter { $0.key == "NETACTIVITY_ROOTS" }) { $1 }

        /// A scratch folder under /tmp, which the roots share with this machine.
        static func scratch(_ name: String) throws -> URL {
            let url = URL(fileURLWithPath: "/tmp/netactivity-\(name)-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }

        /// Runs `SCRIPT ARGUMENTS` of Tests/Rendering in ROOT (`test`), or in a throwaway copy (`test-overlay`).
        static func run(_ how: String, _ root: String, _ script: String, _ arguments: [String]) throws -> ToolResult {
            let release = try Self.release.get()
            return try StartedTool("/bin/bash", [rootScript, how, root, release.path, script] + arguments, bus: nil,
                                   environment: environment).result(within: timeout)
        }

        /// The extension's GNOME 45+ build, as `gnome-extensions install` takes it.
        static func extensionZip(in folder: URL) throws -> String {
            let built = try runTool("/bin/bash", [Paths.packagingFolder.appendingPathComponent("build-shell-extension.sh").path],
                                    bus: nil, environment: ["OUTPUT": folder.path])
            try #require(built.succeeded, "\(built)")
            return folder.appendingPathComponent("gnome-45/\(ShellExtensionTests.uuid).shell-extension.zip").path
        }

        /// Every step of `shell-extension.sh`: the indicator, the menu's accessible names, its bar filled from the
        /// track's left end, Stop, the service's restart, a day of 20 disables and enables, the logout, the log.
        static let extensionSteps = [
            "extension enabled: state 1", "indicator drawn", "accessible names: the rows, the bar and Stop backup",
            "from the track's left end", "stopped from the menu: the run exited with status 143",
            "the menu was built once from Stop to the backup's end, when its row went",
            "indicator gone after the activities ended", "a day: 20 disables and enables",
            "logout: the Shell and the service stopped together", "the Shell's log: nothing of the extension",
            "PASS gnome-extension",
        ]

        /// Keeps what a failed run drew (`failed-*.png` in its scratch folder) in `.build/desktop-tests/failed`,
        /// which git ignores, for the person reading the failure.
        static func keepPictures(of result: ToolResult, from work: URL) {
            guard !result.succeeded else { return }
            let kept = Paths.repository.appendingPathComponent(".build/desktop-tests/failed")
            try? FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: work.path)) ?? []
                where name.hasPrefix("failed") && name.hasSuffix(".png") {
                let target = kept.appendingPathComponent("\(work.lastPathComponent)-\(name)")
                try? FileManager.default.copyItem(at: work.appendingPathComponent(name), to: target)
                print("kept \(target.path)")
            }
        }

        static func expectTheWholeDay(_ result: ToolResult, _ what: String) {
            #expect(result.succeeded, "\(what): \(result)")
            for step in extensionSteps {
                #expect(result.stdout.contains(step), "\(what), \(step): \(result)")
            }
        }

        @Test(arguments: ["x11", "wayland"])
        func gnome48RunsTheExtensionThroughADay(session: String) throws {
            let work = try Self.scratch("gnome48")
            defer { try? FileManager.default.removeItem(at: work) }
            let result = try Self.run("test", "trixie-gnome", "shell-extension.sh",
                                      [session, try Self.release.get().path, try Self.extensionZip(in: work), work.path])
            Self.keepPictures(of: result, from: work)
            Self.expectTheWholeDay(result, "GNOME 48, \(session)")
            #expect(result.stdout.contains("GNOME Shell 48 up (\(session))"), "\(result)")
            let png = try Data(contentsOf: work.appendingPathComponent("extension-gnome.png"))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        }

        /// GNOME 48 shows an app's measured traffic as this machine's GNOME 43 does (`shell-extension-traffic.sh`):
        /// the session user's app, laid out as systemd lays it out, appears, its rate changes three times, the day's
        /// usage shows with a bar of the app's share, its Pause button pauses it and Resume resumes it (the row changing
        /// in place), its Limit submenu's presets make the app's rule and its row say so, the keyboard alone pauses and resumes it through AT-SPI, a used-up data plan is told of in the
        /// Shell's banner and resumed from it, and the app goes.
        @Test(.enabled(if: getuid() == 0, "counting traffic needs root"))
        func gnome48ShowsAnAppsMeasuredTraffic() throws {
            let work = try Self.scratch("gnome48-traffic")
            defer { try? FileManager.default.removeItem(at: work) }
            let result = try Self.run("test", "trixie-gnome", "shell-extension-traffic.sh",
                                      ["x11", try Self.release.get().path, try Self.extensionZip(in: work), work.path])
            Self.keepPictures(of: result, from: work)
            #expect(result.succeeded && result.stdout.contains("PASS gnome-extension-traffic"), "\(result)")
            #expect(result.stdout.contains("GNOME Shell 48 up (x11)"), "\(result)")
            #expect(result.stdout.contains("the row's rate changed 3 times while the download ran"), "\(result)")
            #expect(result.stdout.contains("the menu: Used today, Backup Tool's row and a bar of its share"),
                    "\(result)")
            #expect(result.stdout.contains("the menu: Pause paused the app, the row said so, Resume resumed it"),
                    "\(result)")
            #expect(result.stdout.contains("the row changed in place: the menu was not built again"), "\(result)")
            #expect(result.stdout.contains("the menu: Limit's 1 MB/s limited the app, and its row said so"), "\(result)")
            #expect(result.stdout.contains("the menu: the plan heads Used today, with a full bar"), "\(result)")
            #expect(result.stdout.contains("the menu: Pause on metered networks, No limit and the check box again made"),
                    "\(result)")
            for step in ["the keyboard alone: the indicator, its menu, Pause, Resume and Pause again",
                         "a screen reader reads the row as enabled", "the keyboard went back to the top bar",
                         "the Shell told of the used-up data plan, in a banner",
                         "Resume, on the notification, resumed the plan"] {
                #expect(result.stdout.contains(step), "\(step): \(result)")
            }
        }

        /// GNOME 48 in German: the extension's indicator and menu drawn, and what a screen reader says of them German
        /// with German numbers (`shell-extension-language.sh`).
        @Test func gnome48ShowsTheExtensionInTheSessionsLanguage() throws {
            let work = try Self.scratch("gnome48-de")
            defer { try? FileManager.default.removeItem(at: work) }
            let result = try Self.run("test", "trixie-gnome", "shell-extension-language.sh",
                                      ["x11", try Self.release.get().path, try Self.extensionZip(in: work), work.path])
            Self.keepPictures(of: result, from: work)
            #expect(result.succeeded && result.stdout.contains("PASS gnome-extension-language"), "\(result)")
            #expect(result.stdout.contains("GNOME Shell 48 up in German (x11)"), "\(result)")
        }

        /// Debian testing's GNOME (50 today), which has no X11 session: headless Wayland.
        @Test func theNewestGnomeInDebianTestingRunsTheExtension() throws {
            try newestGnome(in: "forky-gnome")
        }

        /// Debian unstable's GNOME (51 today): asked for, not a gate, since unstable changes daily.
        @Test(.enabled(if: ProcessInfo.processInfo.environment["NETACTIVITY_DEBIAN_UNSTABLE"] == "1",
                       "Debian unstable changes daily: NETACTIVITY_DEBIAN_UNSTABLE=1 runs it"))
        func theNewestGnomeInDebianUnstableRunsTheExtension() throws {
            try newestGnome(in: "sid-gnome")
        }

        private func newestGnome(in root: String) throws {
            let work = try Self.scratch(root)
            defer { try? FileManager.default.removeItem(at: work) }
            let result = try Self.run("test", root, "shell-extension.sh",
                                      ["wayland", try Self.release.get().path, try Self.extensionZip(in: work), work.path])
            Self.keepPictures(of: result, from: work)
            Self.expectTheWholeDay(result, root)
        }

        /// The package's extension, for every user, with no copy in the user's folder: in Debian 13 (GNOME 48, the
        /// ES-module build) and on this machine (GNOME 43, the `imports` build), each a throwaway copy; and its
        /// trigger, which takes the other build when GNOME Shell is upgraded.
        @Test(arguments: ["trixie-gnome", "host"])
        func thePackagedExtensionLoadsForEveryUser(root: String) throws {
            let work = try Self.scratch("package")
            defer { try? FileManager.default.removeItem(at: work) }
            let package = try Self.package(into: work)
            let result = try Self.run("test-overlay", root, "shell-extension.sh",
                                      ["x11", try Self.release.get().path, package, work.path])
            Self.keepPictures(of: result, from: work)
            Self.expectTheWholeDay(result, "the package in \(root)")
        }

        @Test func thePackageFollowsGnomeShellUpgrades() throws {
            let work = try Self.scratch("upgrade")
            defer { try? FileManager.default.removeItem(at: work) }
            let result = try StartedTool("/bin/bash", [Paths.repository.appendingPathComponent(
                "Tests/Rendering/extension-upgrade.sh").path, try Self.package(into: work)], bus: nil,
                environment: Self.environment).result(within: Self.timeout)
            #expect(result.succeeded, "\(result)")
            for step in ["upgraded to GNOME Shell 48.7-0+deb13u1: the gnome-45 build",
                         "upgraded to GNOME Shell 43.9-0+deb12u2: the gnome-43 build", "removed: no link",
                         "PASS extension upgrade"] {
                #expect(result.stdout.contains(step), "\(step): \(result)")
            }
        }

        /// The package of the release, built once for the suite (in `.build/desktop-tests`, which git ignores),
        /// and copied into the scratch folder under /tmp that the roots share.
        static func package(into folder: URL) throws -> String {
            let built = try Self.builtPackage.get()
            let copy = folder.appendingPathComponent(built.lastPathComponent)
            try FileManager.default.copyItem(at: built, to: copy)
            return copy.path
        }

        static let builtPackage: Result<URL, TestFailure> = {
            do {
                let output = Paths.repository.appendingPathComponent(".build/desktop-tests")
                let built = try runTool("/bin/bash", [Paths.packagingFolder.appendingPathComponent("build-deb.sh").path],
                                        bus: nil, environment: ["OUTPUT": output.path, "PRODUCTS": try release.get().path,
                                                                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? ""],
                                        timeout: .seconds(600))
                guard built.succeeded, let path = built.stdout.split(separator: "\n").last else {
                    return .failure(TestFailure("build-deb.sh failed: \(built)"))
                }
                return .success(URL(fileURLWithPath: String(path)))
            } catch {
                return .failure(TestFailure("build-deb.sh did not run: \(error)"))
            }
        }()

        /// Plasma 6: the tray's item and menu, the backup as a job in Plasma's notifications whose Cancel stops the
        /// run, and 30 begin/end cycles (`tray-in-a-host.sh plasma6`).
        @Test func plasma6ShowsTheTrayItsMenuAndTheJob() throws {
            let work = try Self.scratch("plasma6")
            defer { try? FileManager.default.removeItem(at: work) }
            let result = try Self.run("test", "trixie-plasma", "tray-in-a-host.sh",
                                      ["plasma6", try Self.release.get().path, work.path])
            Self.keepPictures(of: result, from: work)
            #expect(result.succeeded, "\(result)")
            for step in ["icon drawn", "menu drawn", "Plasma drew the job",
                         "stopped from Plasma's job tracker: the run exited with status 143",
                         "icon gone after the activities ended", "survived 30 cycles", "PASS plasma6"] {
                #expect(result.stdout.contains(step), "\(step): \(result)")
            }
        }

        /// Plasma 6's task manager draws a run's progress on its app's task (`dock-progress.sh plasma-tasks`).
        @Test func plasma6TaskManagerDrawsARunsProgress() throws {
            let work = try Self.scratch("plasma-tasks")
            defer { try? FileManager.default.removeItem(at: work) }
            let result = try Self.run("test", "trixie-plasma", "dock-progress.sh",
                                      ["plasma-tasks", try Self.release.get().path, work.path])
            Self.keepPictures(of: result, from: work)
            #expect(result.succeeded, "\(result)")
            for step in ["the dock's progress bar:", "the bar is gone after the run ended", "PASS plasma-tasks"] {
                #expect(result.stdout.contains(step), "\(step): \(result)")
            }
        }
    }
}
