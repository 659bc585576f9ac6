import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness
import Testing

extension Integration {
    /// The programs in the person's language (docs/translating.md): the catalogs of `po/`, compiled as the package
    /// compiles them, read by the real tray and command in the German and Polish locales that `Tests/install-tools.sh`
    /// makes, and in a language nobody translated; what programs read never changes with the language.
    @Suite("Translations")
    struct TranslationTests {
        /// The catalogs, compiled by the packaging's script into a folder of the test's own.
        static func compiledCatalogs() throws -> URL {
            let folder = try temporaryDirectory("catalogs")
            let compiled = try runTool("/bin/bash", [Paths.packagingFolder.appendingPathComponent("build-catalogs.sh").path,
                                                     folder.path], bus: nil)
            try #require(compiled.succeeded, "\(compiled)")
            return folder
        }

        /// A program's environment in `locale`, reading the catalogs in `catalogs`.
        static func speaking(_ locale: String, _ catalogs: URL) -> [String: String] {
            ["LANG": locale, "TEXTDOMAINDIR": catalogs.path]
        }

        @Test func theTemplateHoldsEveryMarkedTextAndEveryCatalogIsCompleteAndChecked() throws {
            let work = try temporaryDirectory("template")
            defer { try? FileManager.default.removeItem(at: work) }
            let fresh = work.appendingPathComponent("netactivity.pot")
            let made = try runTool("/bin/bash", [Paths.repository.appendingPathComponent("po/update-template.sh").path,
                                                 fresh.path], bus: nil)
            try #require(made.succeeded, "\(made)")
            let committed = Paths.repository.appendingPathComponent("po/netactivity.pot").path
            // Every text the sources mark is in the committed template, and the template has no text they lost.
            let missing = try runTool("msgcmp", ["--use-untranslated", committed, fresh.path], bus: nil)
            #expect(missing.succeeded, "po/netactivity.pot lacks texts; run po/update-template.sh: \(missing)")
            let stale = try runTool("msgcmp", ["--use-untranslated", fresh.path, committed], bus: nil)
            #expect(stale.succeeded, "po/netactivity.pot has texts the sources no longer have: \(stale)")
            // A text with a Swift interpolation would be looked up with its values in it, and never found.
            let template = try String(contentsOf: fresh, encoding: .utf8)
            #expect(!template.contains(#"\\("#), "a marked text interpolates: \(template)")

            let languages = try String(contentsOf: Paths.repository.appendingPathComponent("po/LINGUAS"), encoding: .utf8)
                .split(separator: "\n").filter { !$0.hasPrefix("#") }
            #expect(languages.contains("de") && languages.contains("pl"))
            for language in languages {
                let catalog = Paths.repository.appendingPathComponent("po/\(language).po").path
                let checked = try runTool("msgfmt", ["--check", "--statistics", "--output-file=/dev/null", catalog],
                                          bus: nil, environment: ["LC_ALL": "C"])
                #expect(checked.succeeded, "\(checked)")
                #expect(checked.stderr.contains("translated message") && !checked.stderr.contains("untranslated")
                        && !checked.stderr.contains("fuzzy"), "\(language) is not complete: \(checked.stderr)")
                let current = try runTool("msgcmp", [catalog, fresh.path], bus: nil)
                #expect(current.succeeded, "\(language) lacks texts: \(current)")
            }
        }

        /// The menu, read through dbusmenu as every host reads it, and the tooltip, in German, in Polish with its
        /// three plural forms (1, 2 and 5 active), and in English where no catalog speaks the language.
        @Test func theTrayMenuSpeaksTheSessionsLanguageWithItsPluralForms() throws {
            let catalogs = try Self.compiledCatalogs()
            defer { try? FileManager.default.removeItem(at: catalogs) }
            let bus = try PrivateBus()
            let watcher = try TrayProcess.watcher(bus)
            let service = try DaemonProcess(bus: bus)
            let client = try RawClient(bus)
            let host = try TrayMenuTests.menuHost(bus)
            let german = try TrayProcess(bus, environment: Self.speaking("de_DE.UTF-8", catalogs))
            let polish = try TrayProcess(bus, environment: Self.speaking("pl_PL.UTF-8", catalogs))
            let unknown = try TrayProcess(bus, environment: Self.speaking("xx_XX.UTF-8", catalogs))

            let server = try NotificationTests.notificationServer(bus)
            let backup = try client.begin("backup")
            // An amount without a total: the row and the tooltip say it with the locale's decimal separator.
            _ = try client.call(ServiceMembers.setTransfer.name) {
                $0.append(backup); $0.append(UInt64(1_234_567)); $0.append(UInt64(0))
            }
            for _ in 0..<3 { try watcher.awaitCall("RegisterStatusNotifierItem") }
            let layout = try TrayMenuTests.awaitLayout(bus, german, host, containing: "'backup — 1,2 MB")
            for row in ["'1 aktiv'", "'Details anzeigen'", "'Alle Aktivitäten beenden'"] {
                #expect(layout.contains(row), "\(row) in \(layout)")
            }
            let toolTip = try german.property("ToolTip").decode(ReceivedToolTip.self)
            #expect(toolTip.title == "Netzwerkaktivität" && toolTip.text.hasPrefix("backup — 1,2 MB"), "\(toolTip)")
            // Its notification, as "Details anzeigen" shows it.
            let details = try #require(TrayMenuTests.rowID(labelled: "Details anzeigen", in: layout), "\(layout)")
            #expect(try TrayMenuTests.menuCall(bus, german, "Event", [details, "clicked", "<0>", "0"]).succeeded)
            let notice = try NotificationTests.Notify(try server.awaitCall("Notify"))
            #expect(notice.summary == "1 aktiv" && notice.body.hasPrefix("backup — 1,2 MB"), "\(notice)")
            _ = try TrayMenuTests.awaitLayout(bus, polish, host, containing: "'1 aktywna'")
            let english = try TrayMenuTests.awaitLayout(bus, unknown, host, containing: "'1 active'")
            #expect(english.contains("'Show details'") && english.contains("'End all activities'"), "\(english)")
            #expect(try unknown.property("ToolTip").decode(ReceivedToolTip.self).title == "Network activity")

            _ = try client.begin("mail")
            let two = try TrayMenuTests.awaitLayout(bus, polish, host, containing: "'2 aktywne'")
            #expect(two.contains("'Pokaż szczegóły'") && two.contains("'Zakończ wszystkie aktywności'"), "\(two)")
            for label in ["sync", "update", "feeds"] { _ = try client.begin(label) }
            _ = try TrayMenuTests.awaitLayout(bus, polish, host, containing: "'5 aktywnych'")
            _ = try TrayMenuTests.awaitLayout(bus, german, host, containing: "'5 aktiv'")
            _ = try TrayMenuTests.awaitLayout(bus, unknown, host, containing: "'5 active'")
            _ = service
        }

        /// `status`, `history`, a validation error and `run --notify` in German, with German numbers and dates;
        /// `status --json`, `history --json` and a panel's format byte for byte the same in every language.
        @Test func theCommandSpeaksGermanAndWhatProgramsReadNeverChanges() throws {
            let catalogs = try Self.compiledCatalogs()
            defer { try? FileManager.default.removeItem(at: catalogs) }
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus, arguments: DaemonProcess.noDelays
                                            + ["--state-dir", bus.stateDirectory.path])
            let server = try NotificationTests.notificationServer(bus)
            let client = try RawClient(bus)
            let german = Self.speaking("de_DE.UTF-8", catalogs)
            let polish = Self.speaking("pl_PL.UTF-8", catalogs)

            let run = try runTool(Paths.cli.path, ["run", "--notify", "--label", "fetch", "--", "/bin/true"], bus: bus,
                                  environment: german)
            #expect(run.succeeded, "\(run)")
            let notice = try NotificationTests.Notify(try server.awaitCall("Notify"))
            #expect(notice.summary == "fetch fertig", "\(notice.summary)")
            #expect(notice.body.contains(/^\/bin\/true lief \d+,\d s$/), "\(notice.body)")

            let id = try client.begin("backup")
            _ = try client.call(ServiceMembers.setTransfer.name) {
                $0.append(id); $0.append(UInt64(1_234_567)); $0.append(UInt64(9_000_000))
            }
            let status = try runTool(Paths.cli.path, ["status"], bus: bus, environment: german)
            for text in ["sichtbar: ja", "aktiv: 1", "BEZEICHNUNG", "FORTSCHRITT", "13 % 1,2 MB/9,0 MB"] {
                #expect(status.stdout.contains(text), "\(text) in \(status)")
            }
            let polishStatus = try runTool(Paths.cli.path, ["status"], bus: bus, environment: polish)
            #expect(polishStatus.stdout.contains("POSTĘP") && polishStatus.stdout.contains("13% 1,2 MB/9,0 MB"),
                    "\(polishStatus)")
            // LANGUAGE comes first for the texts (gettext's rule); the numbers stay the locale's.
            let preferred = try runTool(Paths.cli.path, ["status"], bus: bus,
                                        environment: german.merging(["LANGUAGE": "pl:de"]) { $1 })
            #expect(preferred.stdout.contains("POSTĘP") && preferred.stdout.contains("13% 1,2 MB/9,0 MB"), "\(preferred)")
            let history = try runTool(Paths.cli.path, ["history"], bus: bus, environment: german)
            #expect(history.stdout.contains("ERGEBNIS") && history.stdout.contains("fertig"), "\(history)")
            #expect(history.stdout.contains(/\d\d\.\d\d\.\d{4} \d\d:\d\d/), "a German date: \(history)")
            let refused = try runTool(Paths.cli.path, ["progress", "\(id)"], bus: bus, environment: german)
            #expect(!refused.succeeded && refused.stderr.contains("Geben Sie einen Prozentwert oder --done BYTES an."),
                    "\(refused)")

            for arguments in [["status", "--json"], ["history", "--json"]] {
                let english = try runTool(Paths.cli.path, arguments, bus: bus)
                #expect(english.succeeded && english.stdout.contains(arguments[0] == "status" ? "\"backup\"" : "\"fetch\""),
                        "\(english)")
                for language in [german, polish] {
                    let translated = try runTool(Paths.cli.path, arguments, bus: bus, environment: language)
                    #expect(translated.stdout == english.stdout, "\(arguments) in \(language): \(translated)")
                }
            }
            var panels: [String] = []
            for language in [[:], german, polish] {
                let watch = try BackgroundProcess(Paths.cli, ["watch", "--format", "waybar"], bus: bus,
                                                  environment: language)
                panels.append(try watch.awaitLine("waybar's line") { $0.contains("\"tooltip\"") })
            }
            #expect(panels[0].contains("backup — 13 %") && Set(panels).count == 1, "\(panels)")
            _ = service
        }
    }
}
