import Foundation
import ServiceHarness
import Testing

extension Integration {
    /// What a person sees, in the real programs of the desktops people use, each on its own virtual screen and
    /// private buses: the tray icon in every host (`Tests/Rendering/tray-in-a-host.sh`), the project's GNOME Shell
    /// extension (`shell-extension.sh`), the README's polybar and
    /// i3blocks modules (`panel-module.sh`; waybar's runs in the waybar host), and the notifications in dunst
    /// (`notifications.sh`). The scripts check the screen's pixels and the bus; they also make the README's
    /// pictures in `docs/` when given the folder. GNOME and Plasma, which load both cores as they start, run alone.
    @Suite("On screen, in real desktops", .serialized)
    struct HostRenderingTests {
        static let script = Paths.repository.appendingPathComponent("Tests/Rendering")

        static func start(_ script: String, _ arguments: [String]) throws -> StartedTool {
            try StartedTool("/bin/bash", [Self.script.appendingPathComponent(script).path] + arguments, bus: nil,
                            environment: ["PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"])
        }

        static func run(_ script: String, _ arguments: [String], timeout: Duration) throws -> ToolResult {
            try start(script, arguments).result(within: timeout)
        }

        /// Each host draws the menu of a run at 45 % and 3 MB/s with its Stop row; see `tray-in-a-host.sh`. The
        /// hosts that start light run two at a time, each on a screen and buses of its own; GNOME and Plasma alone.
        @Test(arguments: [["gtk-sni-tray", "lxqt"], ["xfce", "waybar"], ["gnome"], ["plasma"]])
        func theTrayIconShowsItsMenuAndSurvivesChurn(hosts: [String]) throws {
            let shots = try temporaryDirectory("shots")
            defer { try? FileManager.default.removeItem(at: shots) }
            let runs = try hosts.map { try Self.start("tray-in-a-host.sh", [$0, Paths.products.path, shots.path]) }
            for (host, run) in zip(hosts, runs) {
                try check(host, drew: run.result(within: .seconds(240)), in: shots)
            }
        }

        private func check(_ host: String, drew result: ToolResult, in shots: URL) throws {
            #expect(result.succeeded, "\(host): \(result)")
            var steps = ["icon drawn", "menu drawn", "icon gone after the activities ended", "survived 30 cycles",
                         "PASS \(host)"]
            // Where the host's own checks go further: a click on Stop, the module's percent, Plasma's job.
            switch host {
            case "gtk-sni-tray", "xfce": steps.append("stopped from the menu: the run exited with status 143")
            case "waybar": steps.append("waybar's module drew the percent")
            case "plasma": steps += ["Plasma drew the job", "stopped from Plasma's job tracker: the run exited with status 143"]
            default: break
            }
            for step in steps {
                #expect(result.stdout.contains(step), "\(host), \(step): \(result)")
            }
            var pictures = ["tray-\(host).png"]
            if host == "plasma" { pictures.append("job-plasma.png") }
            for picture in pictures {
                let png = try Data(contentsOf: shots.appendingPathComponent(picture))
                #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(picture) is a PNG")
            }
        }

        /// The tray's "Recent" rows in gtk-sni-tray: the menu, opened with nothing finished and again after five
        /// `netactivity run`s, is taller by the rows; see `recent-menu.sh`.
        @Test func theTrayMenuListsWhatFinished() throws {
            let result = try Self.run("recent-menu.sh", ["gtk-sni-tray", Paths.products.path], timeout: .seconds(180))
            #expect(result.succeeded, "\(result)")
            for step in ["idle menu drawn", "menu with Recent drawn", "Recent rows drawn", "PASS gtk-sni-tray"] {
                #expect(result.stdout.contains(step), "\(step): \(result)")
            }
        }

        /// The project's own GNOME Shell extension, in GNOME Shell 43 with no AppIndicator extension, through a
        /// person's day: the top bar's indicator, its menu with the accessible names a screen reader says, the
        /// backup's bar filled 45 % from the track's left end, its Stop, the tray standing down, a service restart,
        /// 20 disables and enables as the lock screen does, a logout, and nothing of the extension in the Shell's
        /// log; see `shell-extension.sh`. GNOME 48, 50 and 51, and the package's extension: `DebianDesktopTests`.
        @Test func theShellExtensionShowsTheActivitiesAndStopsOne() throws {
            let builds = try ShellExtensionTests.build()
            let shots = try temporaryDirectory("shots")
            defer { for folder in [builds, shots] { try? FileManager.default.removeItem(at: folder) } }
            let zip = builds.appendingPathComponent("gnome-43/\(ShellExtensionTests.uuid).shell-extension.zip")
            let result = try Self.run("shell-extension.sh", ["x11", Paths.products.path, zip.path, shots.path],
                                      timeout: .seconds(240))
            DebianDesktopTests.expectTheWholeDay(result, "GNOME 43")
            #expect(result.stdout.contains("GNOME Shell 43 up (x11)"), "\(result)")
            let png = try Data(contentsOf: shots.appendingPathComponent("extension-gnome.png"))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "extension-gnome.png is a PNG")
        }

        /// The extension in the session's language (`shell-extension-language.sh`): a German GNOME Shell 43 draws
        /// the indicator and the menu, whose accessible names are German with German numbers ("1,2 MB von 9,0 MB",
        /// "backup stoppen"), from the catalogs in the zip's locale/ folder. GNOME 48's: `DebianDesktopTests`.
        @Test func theShellExtensionSpeaksTheSessionsLanguage() throws {
            let builds = try ShellExtensionTests.build()
            let shots = try temporaryDirectory("shots")
            defer { for folder in [builds, shots] { try? FileManager.default.removeItem(at: folder) } }
            let zip = builds.appendingPathComponent("gnome-43/\(ShellExtensionTests.uuid).shell-extension.zip")
            let result = try Self.run("shell-extension-language.sh", ["x11", Paths.products.path, zip.path, shots.path],
                                      timeout: .seconds(180))
            #expect(result.succeeded && result.stdout.contains("PASS gnome-extension-language"), "\(result)")
            #expect(result.stdout.contains("GNOME Shell 43 up in German (x11)"), "\(result)")
            #expect(FileManager.default.fileExists(atPath: shots.appendingPathComponent("extension-gnome-de.png").path))
        }

        /// An app's traffic that the kernel measured, in the extension (`shell-extension-traffic.sh`, root): a download
        /// in the cgroup where systemd puts GNOME's launch of the session user's app shows the indicator, and a menu
        /// row "Backup Tool (measured)" with its rate and the app's icon, whose rate changes three times as the
        /// download speeds up; its Limit submenu, whose 1 MB/s makes the app's rule and its row say so, and whose
        /// No limit and Pause on metered networks change the rule; the day's usage ("Used today", the app's row and a bar of its share); a used-up data
        /// plan in the Shell's banner, resumed from it; and the indicator leaves when the download ends.
        @Test(.enabled(if: ApplicationCgroup.canBeMade, "counting traffic needs root and a writable cgroup v2 tree"))
        func theShellExtensionShowsAnAppsMeasuredTraffic() throws {
            let builds = try ShellExtensionTests.build()
            let shots = try temporaryDirectory("shots")
            defer { for folder in [builds, shots] { try? FileManager.default.removeItem(at: folder) } }
            let zip = builds.appendingPathComponent("gnome-43/\(ShellExtensionTests.uuid).shell-extension.zip")
            let result = try Self.run("shell-extension-traffic.sh", ["x11", Paths.products.path, zip.path, shots.path],
                                      timeout: .seconds(180))
            #expect(result.succeeded && result.stdout.contains("PASS gnome-extension-traffic"), "\(result)")
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
            #expect(result.stdout.contains("the Shell told of the used-up data plan, in a banner"), "\(result)")
            #expect(result.stdout.contains("Resume, on the notification, resumed the plan"), "\(result)")
            let usage = try Data(contentsOf: shots.appendingPathComponent("extension-gnome-usage.png"))
            #expect(usage.count > 1_000, "the picture of Used today")
            #expect(result.stdout.contains("the indicator left after the download"), "\(result)")
        }

        /// Plank, and GNOME's Dash to Dock, draw a run's progress on its app's icon, from the tray's launcher
        /// entries; see `dock-progress.sh`.
        @Test(arguments: ["plank", "dash-to-dock"])
        func aDockDrawsARunsProgressOnItsAppsIcon(dock: String) throws {
            let shots = try temporaryDirectory("shots")
            defer { try? FileManager.default.removeItem(at: shots) }
            let result = try Self.run("dock-progress.sh", [dock, Paths.products.path, shots.path],
                                      timeout: .seconds(180))
            #expect(result.succeeded, "\(result)")
            for step in ["the dock's progress bar:", "the bar is gone after the run ended", "PASS \(dock)"] {
                #expect(result.stdout.contains(step), "\(step): \(result)")
            }
            let png = try Data(contentsOf: shots.appendingPathComponent("dock-\(dock).png"))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "dock-\(dock).png is a PNG")
        }

        /// dunst draws a run's progress as a bar in one bubble, which says it finished after the end; see
        /// `progress-notification.sh`.
        @Test func dunstDrawsARunsProgressInOneBubble() throws {
            let shots = try temporaryDirectory("shots")
            defer { try? FileManager.default.removeItem(at: shots) }
            let result = try Self.run("progress-notification.sh", [Paths.products.path, shots.path],
                                      timeout: .seconds(90))
            #expect(result.succeeded, "\(result)")
            for step in ["dunst's bar: filled", "the bubble says the run finished, in place",
                         "PASS progress notification"] {
                #expect(result.stdout.contains(step), "\(step): \(result)")
            }
            let png = try Data(contentsOf: shots.appendingPathComponent("progress-notification.png"))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "progress-notification.png is a PNG")
        }

        @Test(arguments: ["polybar", "i3blocks"])
        func theREADMEModuleShowsWhileActiveAndHidesWhenIdle(module: String) throws {
            let result = try Self.run("panel-module.sh", [module, Paths.products.path], timeout: .seconds(90))
            #expect(result.succeeded, "\(result)")
            #expect(result.stdout.contains("hidden when idle") && result.stdout.contains("PASS \(module)"), "\(result)")
        }

        @Test func notificationsAreShownByARealServer() throws {
            let result = try Self.run("notifications.sh", [Paths.products.path], timeout: .seconds(90))
            #expect(result.succeeded, "\(result)")
            #expect(result.stdout.contains("run --notify: shown"), "\(result)")
            #expect(result.stdout.contains("tray --notify-after: shown"), "\(result)")
        }
    }
}
