import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness
import Testing

extension Integration {
    /// The examples of docs/clients.md, one per language desktop programs are written in, each built with the
    /// system's compilers and generators from the interface XML that `packaging/install.sh` installs, then run against
    /// the real daemon: begin with a label, report progress, stop when asked, end; and without the service, one
    /// warning and the work done all the same.
    @Suite("docs/clients.md: the examples in every language")
    struct ClientExampleTests {
        enum Language: String, CaseIterable, CustomTestStringConvertible, Sendable {
            case python = "Python with GIO"
            case gjs = "GJS"
            case gdbus = "C with GDBus (gdbus-codegen)"
            case sdBus = "C with sd-bus"
            case qt = "C++ with Qt (qdbusxml2cpp)"
            case rust = "Rust with zbus"

            var testDescription: String { rawValue }

            /// The command name the service names the example by.
            var command: String {
                switch self {
                case .python: "python3"
                case .gjs: "gjs"
                case .gdbus: "backup-gdbus"
                case .sdBus: "backup-sdbus"
                case .qt: "backup-qt"
                case .rust: "backup-zbus"
                }
            }
        }

        /// An example built in a folder of its own, from the interface XML of a fresh installation.
        final class BuiltExample {
            let installation: Installation
            let folder: URL
            /// The command that runs it, without its STEPS argument.
            let command: [String]
            /// Its environment beside the bus's address: where GJS finds the installed XML.
            let environment: [String: String]

            init(_ language: Language) throws {
                installation = try Installation()
                folder = try temporaryDirectory("example")
                let examples = Paths.repository.appendingPathComponent("docs/clients")
                let xml = installation.path("share/dbus-1/interfaces/org.example.NetworkActivity.xml").path
                environment = ["XDG_DATA_DIRS": installation.path("share").path]
                let script: String
                switch language {
                case .python:
                    command = ["/usr/bin/python3", examples.appendingPathComponent("backup.py").path]
                    return
                case .gjs:
                    command = ["/usr/bin/gjs", "-m", examples.appendingPathComponent("backup.js").path]
                    return
                case .gdbus:
                    script = """
                        gdbus-codegen --interface-prefix org.example. --c-namespace Na \
                            --generate-c-code netactivity-proxy '\(xml)'
                        cc -Wall -Werror -Wno-unused-parameter backup-gdbus.c netactivity-proxy.c \
                            $(pkg-config --cflags --libs gio-2.0 gio-unix-2.0) -o backup-gdbus
                        """
                case .sdBus:
                    script = """
                        cc -Wall -Werror -Wno-unused-parameter backup-sdbus.c \
                            $(pkg-config --cflags --libs libsystemd) -o backup-sdbus
                        """
                case .qt:
                    script = """
                        /usr/lib/qt5/bin/qdbusxml2cpp -p netactivityproxy -i netactivitytypes.h '\(xml)' \
                            org.example.NetworkActivity
                        /usr/lib/qt5/bin/moc netactivityproxy.h -o moc_netactivityproxy.cpp
                        g++ -Wall -Werror -fPIC backup-qt.cpp netactivityproxy.cpp moc_netactivityproxy.cpp \
                            $(pkg-config --cflags --libs Qt5DBus) -o backup-qt
                        """
                case .rust:
                    script = """
                        cp -r backup-zbus/Cargo.toml backup-zbus/src .
                        mkdir -p .cargo
                        printf '%s\\n' '[source.crates-io]' 'replace-with = "debian"' '[source.debian]' \
                            'directory = "/usr/share/cargo/registry"' > .cargo/config.toml
                        PATH="$HOME/.cargo/bin:$PATH" CARGO_TARGET_DIR='\(Self.cargoTarget.path)' \
                            cargo build --offline --quiet
                        """
                }
                let copy = try runTool("/bin/cp", ["-r", examples.path + "/.", folder.path], bus: nil)
                guard copy.succeeded else { throw TestFailure("cannot copy the examples: \(copy)") }
                let built = try runTool("/bin/bash", ["-euc", "cd '\(folder.path)'\n" + script], bus: nil,
                                        environment: ["HOME": NSHomeDirectory()], timeout: .seconds(600))
                guard built.succeeded else { throw TestFailure("\(language.rawValue) did not build: \(built)") }
                command = [language == .rust ? Self.cargoTarget.appendingPathComponent("debug/backup-zbus").path
                    : folder.appendingPathComponent(language.command).path]
            }

            func run(_ bus: PrivateBus, steps: Int) throws -> ToolResult {
                try runTool(command[0], Array(command.dropFirst()) + ["\(steps)"], bus: bus,
                            environment: environment, timeout: .seconds(60))
            }

            func start(_ bus: PrivateBus, steps: Int) throws -> BackgroundProcess {
                try BackgroundProcess(URL(fileURLWithPath: command[0]), Array(command.dropFirst()) + ["\(steps)"],
                                      bus: bus, environment: environment)
            }

            deinit { try? FileManager.default.removeItem(at: folder) }

            /// Where cargo builds the Rust example: kept between runs, since building zbus's crates takes a minute of
            /// both cores and they do not change. As root, outside the checkout beside Debian's roots, so that a
            /// fresh clone (CI's) builds only the example itself; cargo locks the folder while it builds in it.
            static let cargoTarget: URL = {
                if let folder = ProcessInfo.processInfo.environment["NETACTIVITY_CARGO_TARGET"] {
                    return URL(fileURLWithPath: folder)
                }
                if geteuid() == 0 { return URL(fileURLWithPath: "/var/cache/netactivity/cargo-zbus") }
                return BuiltProducts.folder.deletingLastPathComponent().appendingPathComponent("cargo-zbus")
            }()
        }

        @Test(arguments: Language.allCases)
        func beginsReportsProgressStopsWhenAskedAndEndsAndWorksWithoutTheService(language: Language) throws {
            let example = try BuiltExample(language)
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus)
            let listener = try SignalListener(bus)

            // To the end: 3 steps of 1 MB.
            let finished = try example.run(bus, steps: 3)
            #expect(finished.status == 0 && finished.stdout == "done\n" && finished.stderr.isEmpty, "\(finished)")
            let seen = try Self.awaitRecord(listener) { $0.label == "backup" && $0.done != nil }
            #expect(seen.application == language.command && seen.isCancellable && seen.total == 3_000_000,
                    "\(seen)")
            try Self.awaitEnd(of: seen.id, listener)
            #expect(try RawClient(bus).list().isEmpty)

            // Stopped from the panel: the owner hears the request, stops and ends the activity.
            let long = try example.start(bus, steps: 100_000)
            let running = try Self.awaitRecord(listener) { $0.label == "backup" && $0.isCancellable && $0.done != nil }
            _ = try RawClient(bus).call(ServiceMembers.requestCancel.name) { $0.append(running.id) }
            #expect(long.exitStatus(within: .seconds(20)) == 0)
            #expect(try long.nextLine() == "cancelled")
            try Self.awaitEnd(of: running.id, listener)
            #expect(long.stderr.isEmpty, "\(long.stderr)")

            // Without the service: one warning, and the work done all the same.
            service.send(SIGTERM)
            #expect(service.exitStatus() != nil)
            let alone = try example.run(bus, steps: 2)
            #expect(alone.status == 0 && alone.stdout == "done\n", "\(alone)")
            let warnings = alone.stderr.split(separator: "\n")
            #expect(warnings.count == 1 && warnings[0].hasPrefix("backup: the network indicator will not show it: "),
                    "\(alone)")
        }

        /// The next record of `ActivitiesChanged` that `matches`, within 10 s.
        static func awaitRecord(_ listener: SignalListener, _ matches: (ActivityDetails) -> Bool) throws
            -> ActivityDetails
        {
            var found: ActivityDetails?
            _ = try listener.next { message in
                found = changeReport(message)?.changed.first(where: matches)
                return found != nil
            }
            return try #require(found, "no such record in \(listener.history.compactMap(changeReport))")
        }

        static func awaitEnd(of id: UInt32, _ listener: SignalListener) throws {
            let ended = listener.history.contains { changeReport($0)?.ended.contains(id) == true }
            if !ended {
                #expect(try listener.next { changeReport($0)?.ended.contains(id) == true } != nil,
                        "activity \(id) did not end")
            }
        }

        static func changeReport(_ message: Message) -> ActivityChangeReport? {
            guard ServiceMembers.activitiesChanged.matches(message) else { return nil }
            return try? ActivityChangeReport(message)
        }
    }
}
