import Foundation
import ServiceHarness
import Testing

extension Integration {
    /// `netactivity-tray` as a person sees it: drawn by a real tray host on a virtual screen.
    @Suite("netactivity-tray in a real panel")
    struct TrayRenderingTests {
        /// `Tests/Rendering/tray-in-a-panel.sh` starts Xvfb, a private bus, netactivityd, gtk-sni-tray-standalone
        /// and the tray, and checks the screen's pixels; the same script makes the README's `docs/tray.png`.
        @Test func theIconIsDrawnWhileActiveAndGoneAfter() throws {
            let directory = try temporaryDirectory("render")
            defer { try? FileManager.default.removeItem(at: directory) }
            let screenshot = directory.appendingPathComponent("tray.png")
            let script = Paths.repository.appendingPathComponent("Tests/Rendering/tray-in-a-panel.sh")
            let result = try runTool("/bin/bash", [script.path, Paths.products.path, screenshot.path], bus: nil,
                                     timeout: .seconds(90))
            #expect(result.succeeded, "\(result)")
            #expect(result.stdout.contains("icon drawn while active"), "\(result)")
            #expect(result.stdout.contains("icon gone after the activities ended"), "\(result)")
            let png = try Data(contentsOf: screenshot)
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "the screenshot is a PNG")
        }
    }
}
