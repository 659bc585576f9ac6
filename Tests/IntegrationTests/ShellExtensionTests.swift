import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness
import Testing

extension Integration {
    /// The GNOME Shell extension's parts that need no Shell: its builds, its GNOME 45 entry point read by `gjs`,
    /// and the tray's standing down while the extension owns its name. On screen, in GNOME Shell 43:
    /// `HostRenderingTests`.
    @Suite("The GNOME Shell extension, beside the Shell")
    struct ShellExtensionTests {
        static let uuid = "netactivity@example.org"

        /// The builds, made by the one script: a folder and a zip for each of the Shell's extension systems.
        static func build() throws -> URL {
            let output = try temporaryDirectory("shell-extension")
            let built = try runTool("/bin/bash", [Paths.packagingFolder.appendingPathComponent("build-shell-extension.sh").path],
                                    bus: nil, environment: ["OUTPUT": output.path])
            guard built.succeeded else { throw TestFailure("build-shell-extension.sh failed: \(built)") }
            return output
        }

        /// The extension's rules (overall percent, amounts, ages) against the table of cases the Swift rules are
        /// tested against too (`IndicatorRulesTests`): the two cannot drift apart.
        @Test func theRulesAgreeWithTheSwiftOnesCaseByCase() throws {
            let cases = Paths.repository.appendingPathComponent("Tests/Cases")
            let checked = try runTool("/usr/bin/gjs", [
                "-m", cases.appendingPathComponent("check-extension-rules.js").path,
                Paths.repository.appendingPathComponent("Sources/gnome-shell-extension/rules.js").path,
                cases.appendingPathComponent("indicator-rules.json").path,
            ], bus: nil)
            #expect(checked.succeeded && checked.stdout.contains(" cases agree"), "\(checked)")
        }

        /// Each build lists the versions it is tested on (docs/testing.md), carries its stylesheets and its licence,
        /// and has the service's interface XML in its code, read from no file.
        @Test func eachBuildHasItsEntryPointItsVersionsItsLicenceAndTheInterface() throws {
            let output = try Self.build()
            defer { try? FileManager.default.removeItem(at: output) }
            let interfaces = try [ServiceNames.interface, ServiceNames.usageInterface, ServiceNames.pauseInterface]
                .map { name in
                    (name.rawValue, try String(contentsOf: Paths.dbusFolder.appendingPathComponent("\(name).xml"),
                                               encoding: .utf8))
                }
            for (build, versions) in [("gnome-43", ["43", "44"]),
                                      ("gnome-45", ["45", "46", "47", "48", "49", "50", "51"])] {
                let folder = output.appendingPathComponent("\(build)/\(Self.uuid)")
                let metadata = try #require(try JSONSerialization.jsonObject(
                    with: Data(contentsOf: folder.appendingPathComponent("metadata.json"))) as? [String: Any])
                #expect(metadata["uuid"] as? String == Self.uuid)
                #expect(metadata["shell-version"] as? [String] == versions, "\(build)")
                // The Shell binds this domain to the extension's locale/ folder (docs/translating.md).
                #expect(metadata["gettext-domain"] as? String == "netactivity", "\(build)")
                let code = try String(contentsOf: folder.appendingPathComponent("indicator.js"), encoding: .utf8)
                // What extensions.gnome.org's review asks: no file read for the interface, the Shell's own table
                // of applications, styles in the stylesheet rather than inline.
                #expect(!code.contains("file_get_contents") && !code.contains("DesktopAppInfo"), "\(build)")
                #expect(!code.contains(/[{,]\s*style\s*:/) && !code.contains("set_style("), "\(build)")
                #expect(try String(contentsOf: folder.appendingPathComponent("LICENSE"), encoding: .utf8)
                    .contains("GNU GENERAL PUBLIC LICENSE"))
                // The zip holds what `gnome-extensions install` needs, its licence among them.
                let listed = try runTool("/usr/bin/python3", ["-m", "zipfile", "-l", output.appendingPathComponent(
                    "\(build)/\(Self.uuid).shell-extension.zip").path], bus: nil)
                for file in ["metadata.json", "extension.js", "indicator.js", "stylesheet.css", "stylesheet-light.css",
                             "LICENSE", "locale/de/LC_MESSAGES/netactivity.mo", "locale/pl/LC_MESSAGES/netactivity.mo"] {
                    #expect(listed.stdout.contains(file), "\(build): \(listed)")
                }
            }
            // The strings in the code are the XML, byte for byte, by interface: gjs prints them. The ES module is the
            // same code.
            let legacy = output.appendingPathComponent("gnome-43/\(Self.uuid)")
            for (name, xml) in interfaces {
                let embedded = try runTool("/usr/bin/gjs", ["-c", """
                    imports.searchPath.unshift('\(legacy.path)');
                    print(imports.indicator.INTERFACE_XML['\(name)']);
                    """], bus: nil)
                #expect(embedded.stdout == xml + "\n", "\(name): \(embedded)")
            }
            let module = try String(contentsOf: output.appendingPathComponent("gnome-45/\(Self.uuid)/indicator.js"),
                                    encoding: .utf8)
            #expect(module == (try String(contentsOf: legacy.appendingPathComponent("indicator.js"), encoding: .utf8))
                + "\nexport {start, INTERFACE_XML};\n")
        }

        /// GNOME 43's `imports` system runs the shared logic as it is; GNOME 45's entry point is an ES module that
        /// imports the Shell 45 modules. Without a GNOME 45 here, `gjs` parses it and resolves its imports as far as
        /// they go: the first that fails is the Shell's own, not a syntax error of ours.
        @Test func theGnome45EntryPointIsAnESModuleThatImportsTheShell45Modules() throws {
            let output = try Self.build()
            defer { try? FileManager.default.removeItem(at: output) }
            let folder = output.appendingPathComponent("gnome-45/\(Self.uuid)")
            let run = try runTool("/usr/bin/gjs", ["-m", folder.appendingPathComponent("extension.js").path], bus: nil)
            #expect(!run.stderr.contains("SyntaxError"), "\(run)")
            #expect(run.stderr.contains("resource:///org/gnome/shell/extensions/extension.js"), "\(run)")
            let source = try String(contentsOf: folder.appendingPathComponent("extension.js"), encoding: .utf8)
            let imports = source.split(separator: "\n").filter { $0.hasPrefix("import ") }
                .compactMap { $0.split(separator: "'").dropFirst().first.map(String.init) }
            #expect(Set(imports) == [
                "gi://Clutter", "gi://Gio", "gi://GLib", "gi://GObject", "gi://Shell", "gi://St",
                "resource:///org/gnome/shell/extensions/extension.js", "resource:///org/gnome/shell/ui/barLevel.js",
                "resource:///org/gnome/shell/misc/config.js", "resource:///org/gnome/shell/ui/main.js",
                "resource:///org/gnome/shell/ui/messageTray.js",
                "resource:///org/gnome/shell/ui/panelMenu.js", "resource:///org/gnome/shell/ui/popupMenu.js",
                "./indicator.js",
            ], "\(imports)")
            // The shared logic, as an ES module, exports what the entry point imports.
            let module = try runTool("/usr/bin/gjs", ["-m", folder.appendingPathComponent("indicator.js").path],
                                     bus: nil)
            #expect(module.succeeded, "\(module)")
            #expect(try String(contentsOf: folder.appendingPathComponent("indicator.js"), encoding: .utf8)
                .hasSuffix("export {start, INTERFACE_XML};\n"))
            // As a GNOME 43 `imports` module, it has `start`.
            let legacy = try runTool("/usr/bin/gjs", ["-c", """
                imports.searchPath.unshift('\(output.appendingPathComponent("gnome-43/\(Self.uuid)").path)');
                print(typeof imports.indicator.start);
                """], bus: nil)
            #expect(legacy.stdout == "function\n", "\(legacy)")
        }

        /// While the extension owns `org.example.NetworkActivity.ShellIndicator`, the tray stays out of the tray,
        /// and it comes back when the name is released: it follows the name's owner, with no polling.
        @Test func theTrayStandsDownWhileTheExtensionOwnsItsName() throws {
            let bus = try PrivateBus()
            let watcher = try TrayProcess.watcher(bus)
            let daemon = try DaemonProcess(bus: bus)
            var extensionStandIn: FakePeer? = try FakePeer(bus, owning: ServiceNames.shellIndicatorName, answers: [:])
            let tray = try TrayProcess(bus, arguments: ["--log-level", "debug"])
            let client = try RawClient(bus)
            _ = try client.begin("backup")
            // The tray has seen the activity: it logs each state before it shows it, and a second state comes after
            // the first was shown.
            try tray.process.awaitStderr("1 active")
            _ = try client.begin("mail")
            try tray.process.awaitStderr("2 active")
            try watcher.settle()
            #expect(!watcher.calls.contains { $0.member == "RegisterStatusNotifierItem" })
            #expect(try !tray.isInTray)
            #expect(tray.process.stderr.contains("staying out of the tray"), "\(tray.process.stderr)")

            // The extension is turned off: its name goes, and the tray shows the indicator.
            extensionStandIn = nil
            try watcher.awaitCall("RegisterStatusNotifierItem")
            #expect(try tray.isInTray)
            // And it is turned on again.
            extensionStandIn = try FakePeer(bus, owning: ServiceNames.shellIndicatorName, answers: [:])
            try tray.process.awaitStderr("leaving the tray")
            try watcher.awaitRelease(of: tray.itemName)
            _ = extensionStandIn
            #expect(daemon.isRunning)
        }
    }
}
