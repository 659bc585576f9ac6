import Foundation
import ServiceHarness
import Testing

extension Integration {
    /// What a person sees, in the real programs of the desktops people use, each on its own virtual screen and
    /// private buses: the tray icon in every host (`Tests/Rendering/tray-in-a-host.sh`), the README's polybar and
    /// i3blocks modules (`panel-module.sh`; waybar's runs in the waybar host), and the notifications in dunst
    /// (`notifications.sh`). The scripts check the screen's pixels and the bus; they also make the README's
    /// pictures in `docs/` when given the folder. One host at a time: GNOME and Plasma load both cores as they start.
    @Suite("On screen, in real desktops", .serialized)
    struct HostRenderingTests {
        static let script = Paths.repository.appendingPathComponent("Tests/Rendering")

        static func run(_ script: String, _ arguments: [String], timeout: Duration = .seconds(240)) throws
            -> ToolResult
        {
            try runTool("/bin/bash", [Self.script.appendingPathComponent(script).path] + arguments, bus: nil,
                        environment: ["PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"], timeout: timeout)
        }

        @Test(arguments: ["gtk-sni-tray", "xfce", "lxqt", "waybar", "gnome", "plasma"])
        func theTrayIconShowsItsMenuAndSurvivesChurn(host: String) throws {
            let shots = try temporaryDirectory("shots-\(host)")
            defer { try? FileManager.default.removeItem(at: shots) }
            let result = try Self.run("tray-in-a-host.sh", [host, Paths.products.path, shots.path])
            #expect(result.succeeded, "\(result)")
            for step in ["icon drawn", "menu drawn", "icon gone after the activities ended", "survived 30 cycles",
                         "PASS \(host)"] {
                #expect(result.stdout.contains(step), "\(step): \(result)")
            }
            let png = try Data(contentsOf: shots.appendingPathComponent("tray-\(host).png"))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "the menu's screenshot is a PNG")
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
