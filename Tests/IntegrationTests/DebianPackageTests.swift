import NetworkActivityInterface
import DBusKit
import Foundation
import ServiceHarness
import ProgramSupport
import Testing

extension Integration {
    /// The package that `packaging/build-deb.sh` builds: lintian finds no error in it, and unpacked into a throwaway
    /// root its own files start the service through D-Bus activation.
    @Suite("The Debian package",
           .enabled(if: geteuid() == 0, "needs root, to mount the package's /usr over the machine's in a namespace"))
    struct DebianPackageTests {
        @Test func lintianFindsNoErrorAndTheInstalledFilesStartTheService() throws {
            let work = try temporaryDirectory("deb")
            defer { try? FileManager.default.removeItem(at: work) }
            let package = try build(into: work)
            #expect(package.lastPathComponent.hasPrefix("netactivity_\(PackageVersion.current)_"))

            let lintian = try runTool("lintian", ["--fail-on", "error", "--tag-display-limit", "0", package.path],
                                      bus: nil, timeout: .seconds(300))
            #expect(lintian.succeeded, "\(lintian)")
            #expect(!lintian.stdout.split(separator: "\n").contains { $0.hasPrefix("E: ") }, "\(lintian.stdout)")
            #expect(try field("Version", of: package) == PackageVersion.current)
            #expect(try field("Depends", of: package).contains("libdbus-1-3"))

            let root = work.appendingPathComponent("root")
            #expect(try runTool("dpkg-deb", ["-x", package.path, root.path], bus: nil).succeeded)
            for file in Self.installedFiles {
                #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(file).path),
                        "the package has no \(file)")
            }
            for program in ["netactivityd", "netactivity", "netactivity-tray"] {
                let dynamic = try runTool("readelf", ["-d", root.appendingPathComponent("usr/bin/\(program)").path],
                                          bus: nil)
                #expect(dynamic.succeeded && dynamic.stdout.contains("libdbus-1.so.3"), "\(dynamic)")
                #expect(!dynamic.stdout.contains("libswift") && !dynamic.stdout.contains("libFoundation")
                        && !dynamic.stdout.contains("libdispatch"),
                        "\(program) needs the Swift toolchain's libraries: \(dynamic.stdout)")
            }
            // The daemon links none of the standard library's string searches and regular expressions: their
            // modules (a sixth of its code) were mapped and relocated at every start (docs/performance.md).
            let daemon = try Data(contentsOf: root.appendingPathComponent("usr/bin/netactivityd"))
            for module in ["_StringProcessing", "_RegexParser"] {
                #expect(daemon.range(of: Data(module.utf8)) == nil, "netactivityd links \(module)")
            }
            try expectActivation(from: root)
            // The programs find the package's catalogs beside their bin/ (share/locale), with no TEXTDOMAINDIR.
            let german = try runTool(root.appendingPathComponent("usr/bin/netactivity").path, ["progress", "1"],
                                     bus: nil, environment: ["LANG": "de_DE.UTF-8"])
            #expect(german.stderr.contains("Geben Sie einen Prozentwert oder --done BYTES an."), "\(german)")
        }

        /// The release's daemon, which the package holds, runs its start in code laid out together: the order
        /// that `packaging/build-release.sh` measured (`packaging/start-order.sh`) is the one its link followed.
        @Test func theDaemonsStartRunsCodeLaidOutTogether() throws {
            let daemon = try releaseFolder().appendingPathComponent("netactivityd")
            let script = Paths.packagingFolder.appendingPathComponent("start-order.sh").path
            let listed = try runTool("/bin/bash", [script, daemon.path], bus: nil, timeout: .seconds(300))
            try #require(listed.succeeded, "\(listed)")
            let run = Set(listed.stdout.split(separator: "\n").map(String.init))
            #expect(run.count > 500, "callgrind named \(run.count) functions of a start: \(listed)")

            // Where the linker put them. The kernel maps code 64 KiB at a time around what runs: the functions a
            // start runs lie in at most half of the code's windows (about four fifths, in no order; the standard
            // library keeps many of its functions in shared sections, which the linker moves only whole).
            let symbols = try runTool("nm", ["--defined-only", "-S", daemon.path], bus: nil)
            try #require(symbols.succeeded, "\(symbols)")
            var windows = Set<UInt64>(), started = Set<UInt64>()
            for line in symbols.stdout.split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard fields.count == 4, "tT".contains(fields[2]), let address = UInt64(fields[0], radix: 16)
                else { continue }
                windows.insert(address >> 16)
                if run.contains(String(fields[3])) { started.insert(address >> 16) }
            }
            #expect(!started.isEmpty && started.count * 2 <= windows.count,
                    "a start runs code in \(started.count) of the code's \(windows.count) windows of 64 KiB")
        }

        /// The release that `Tests/run.sh` built, or, started some other way, one of its own in `.build-deb`: the
        /// `swift test` that runs this holds the lock of `.build`.
        private func releaseFolder() throws -> URL {
            if let release = Paths.releaseProducts { return release }
            let built = try runTool("/bin/bash", [Paths.packagingFolder.appendingPathComponent("build-release.sh").path,
                                                  "--scratch-path", Paths.repository.appendingPathComponent(".build-deb").path],
                                    bus: nil, timeout: .seconds(1800))
            try #require(built.succeeded, "\(built)")
            return URL(fileURLWithPath: built.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }

        static let installedFiles = [
            "usr/share/dbus-1/services/org.example.NetworkActivity.service",
            "usr/share/dbus-1/interfaces/org.example.NetworkActivity.xml",
            "usr/share/dbus-1/interfaces/org.example.NetworkActivity.Usage.xml",
            "usr/share/dbus-1/interfaces/org.example.NetworkActivity.Pause.xml",
            "usr/share/dbus-1/interfaces/org.example.NetworkActivity.Limits.xml",
            "usr/share/dbus-1/interfaces/org.example.NetworkActivity.Plans.xml",
            "usr/share/dbus-1/system.d/org.example.NetworkActivity.conf",
            "usr/share/polkit-1/actions/org.example.NetworkActivity.policy",
            "usr/lib/systemd/user/netactivityd.service", "usr/lib/systemd/user/netactivity-tray.service",
            "usr/share/dbus-1/system-services/org.example.NetworkActivity.service",
            "usr/lib/systemd/system/netactivityd.service", "usr/lib/sysusers.d/netactivity.conf",
            "usr/share/man/man8/netactivityd.8.gz", "usr/share/man/man1/netactivity.1.gz",
            "usr/share/man/man1/netactivity-tray.1.gz",
            "usr/share/bash-completion/completions/netactivity", "usr/share/zsh/vendor-completions/_netactivity",
            "usr/share/fish/vendor_completions.d/netactivity.fish",
            "usr/share/doc/netactivity/copyright", "usr/share/doc/netactivity/changelog.gz",
            "usr/share/netactivity/gnome-shell/select-build",
            "usr/share/locale/de/LC_MESSAGES/netactivity.mo", "usr/share/locale/pl/LC_MESSAGES/netactivity.mo",
        ] + ["gnome-43", "gnome-45"].flatMap { build in
            ["metadata.json", "extension.js", "indicator.js", "stylesheet.css", "LICENSE",
             "locale/de/LC_MESSAGES/netactivity.mo", "locale/pl/LC_MESSAGES/netactivity.mo"].map {
                "usr/share/netactivity/gnome-shell/\(build)/netactivity@example.org/\($0)"
            }
        }

        /// Runs the script as a person would, with the toolchain on `PATH`, on the release that `Tests/run.sh` built;
        /// returns the package it printed.
        private func build(into folder: URL) throws -> URL {
            let environment = ProcessInfo.processInfo.environment
            var settings = ["OUTPUT": folder.path, "PATH": environment["PATH"] ?? "", "HOME": environment["HOME"] ?? "/root"]
            settings["PRODUCTS"] = try releaseFolder().path
            let result = try runTool("/bin/bash", [Paths.packagingFolder.appendingPathComponent("build-deb.sh").path],
                                     bus: nil, environment: settings, timeout: .seconds(1800))
            try #require(result.succeeded, "\(result)")
            let path = try #require(result.stdout.split(separator: "\n").last.map(String.init))
            return URL(fileURLWithPath: path)
        }

        private func field(_ name: String, of package: URL) throws -> String {
            try runTool("dpkg-deb", ["--field", package.path, name], bus: nil).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// A bus that reads activation files from the unpacked root (`XDG_DATA_DIRS`, as a session bus does) and
        /// sees the root's /usr over its own, in a mount namespace of its own: the packaged activation file names
        /// /usr/bin/netactivityd, and this machine's /usr is left as it is.
        private func expectActivation(from root: URL) throws {
            let usr = root.appendingPathComponent("usr").path
            let bus = try PrivateBus(
                services: .standardSession,
                environment: ["XDG_DATA_DIRS": root.appendingPathComponent("usr/share").path],
                launcher: ["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
                           "mount -t overlay overlay -o lowerdir=\(usr):/usr /usr && exec \"$@\"", "sh"])
            let begun = try dbusSend(bus, ServiceMembers.begin.name, "string:packaged")
            #expect(begun.succeeded && (replyNumber(begun) ?? 0) != 0, "\(begun)")

            let client = try RawClient(bus)
            let pid = try client.connection.processID(of: try BusName(client.connection.nameOwner(of: busName)))
            defer { kill(pid_t(pid), SIGTERM) }
            let running = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/exe"))
            #expect(running == (try Data(contentsOf: root.appendingPathComponent("usr/bin/netactivityd"))),
                    "the service that runs is not the packaged netactivityd")
            let status = try runTool(root.appendingPathComponent("usr/bin/netactivity").path, ["status"], bus: bus)
            // Packaged with --traffic, on a bus whose service finds no system service.
            #expect(status.stdout == "visible: no\nactive: 0\ntraffic: off (the system service is not running)\n",
                    "the packaged netactivity: \(status)")
        }
    }
}
