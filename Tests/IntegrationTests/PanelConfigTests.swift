import Foundation
import ServiceHarness
import Testing

extension Integration {
    /// The panel set-ups of the README's "In your panel", taken from the README itself: each command runs as its
    /// panel runs it (`sh -c`, with the programs on `PATH`) and must print the lines its panel expects.
    @Suite("README: panel set-ups")
    struct PanelConfigTests {
        struct Panel: CustomTestStringConvertible, Sendable {
            let heading: String
            /// The command and the settings around it, from the section's first code block.
            let command: @Sendable (String) throws -> String
            let idle: String
            let active: String
            var testDescription: String { heading }
        }

        static let panels = [
            Panel(heading: "### waybar", command: { block in
                // The block is one entry of waybar's config object; pasted into one, it must be valid JSON.
                let config = try JSONSerialization.jsonObject(with: Data("{\(block)}".utf8)) as? [String: Any]
                let module = try #require(config?["custom/netactivity"] as? [String: Any])
                #expect(module["return-type"] as? String == "json")
                return try #require(module["exec"] as? String)
            }, idle: #"{"alt":"idle","class":"idle","text":"","tooltip":""}"#,
               active: #"{"alt":"active","class":"active","text":"⇅ 1","tooltip":"mail"}"#),
            Panel(heading: "### polybar", command: { block in
                let settings = iniSettings(block, separator: " = ")
                #expect(settings["type"] == "custom/script")
                #expect(settings["tail"] == "true")
                return try #require(settings["exec"])
            }, idle: "", active: "⇅ 1"),
            Panel(heading: "### i3blocks", command: { block in
                let settings = iniSettings(block, separator: "=")
                #expect(settings["interval"] == "persist")
                #expect(settings["format"] == "json")
                return try #require(settings["command"])
            }, idle: #"{"full_text":""}"#, active: #"{"full_text":"⇅ 1"}"#),
        ]

        @Test(arguments: panels)
        func theREADMECommandPrintsWhatThePanelReads(panel: Panel) throws {
            let command = try panel.command(try readmeCodeBlock(after: panel.heading))
            #expect(command.hasPrefix("netactivity watch"), "\(command)")
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus)
            let module = try BackgroundProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", command], bus: bus,
                                               path: "\(Paths.products.path):/usr/bin:/bin")
            let client = try RawClient(bus)

            #expect(try module.nextLine() == panel.idle)
            let id = try client.begin("mail")
            #expect(try module.nextLine() == panel.active)
            try client.end(id)
            #expect(try module.nextLine() == panel.idle)
            _ = service
        }

        @Test func theREADMECommandIntrospectsTheTrayItem() throws {
            let block = try readmeCodeBlock(after: "## The item on the bus", in: "docs/tray.md")
            #expect(block.contains("busctl --user introspect"), "\(block)")
            // Two trays on one bus: both are shown, once each.
            let scene = try TrayScene()
            let second = try TrayProcess(scene.bus, arguments: ["--idle", "show"])
            _ = try scene.client.begin("mail")
            try scene.watcher.awaitCall("RegisterStatusNotifierItem")
            try scene.watcher.awaitCall("RegisterStatusNotifierItem")

            let result = try runTool("/bin/sh", ["-c", block], bus: scene.bus)
            #expect(result.succeeded, "\(result)")
            for member in [".Activate", ".IconPixmap", ".ToolTip", ".NewStatus"] {
                #expect(result.stdout.components(separatedBy: member + " ").count - 1 == 2, "\(member): \(result)")
            }
            _ = (scene, second)
        }
    }
}

/// `key<separator>value` lines, as polybar's and i3blocks' config files write them.
private func iniSettings(_ block: String, separator: String) -> [String: String] {
    var settings: [String: String] = [:]
    for line in block.split(separator: "\n") {
        guard let range = line.range(of: separator) else { continue }
        settings[String(line[..<range.lowerBound])] = String(line[range.upperBound...])
    }
    return settings
}
