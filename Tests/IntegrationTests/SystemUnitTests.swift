import Foundation
import ServiceHarness
import Testing

/// The systemd units in `dbus/`, as `packaging/install.sh` installs them (with `@bindir@` the built programs'
/// folder, so that the checks find the executables): `systemd-analyze verify` finds nothing to say of any, and the
/// system unit's exposure by `systemd-analyze security --offline=true` is at most 2.0, below every systemd daemon of
/// Debian 12 (timesyncd 2.3, networkd 2.8, logind 3.0).
@Suite struct SystemUnitTests {
    static func installed(_ unit: String, as name: String, in folder: URL) throws -> URL {
        let text = try String(contentsOf: Paths.dbusFolder.appendingPathComponent(unit), encoding: .utf8)
        let url = folder.appendingPathComponent(name)
        try text.replacingOccurrences(of: "@bindir@", with: Paths.products.path)
            .write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func everyUnitVerifiesClean() throws {
        let folder = try temporaryDirectory("units")
        defer { try? FileManager.default.removeItem(at: folder) }
        let system = try Self.installed("netactivityd-system.service", as: "netactivityd.service", in: folder)
        let verified = try runTool("/usr/bin/systemd-analyze", ["verify", system.path], bus: nil)
        #expect(verified.succeeded && verified.stdout.isEmpty && verified.stderr.isEmpty, "\(verified)")

        let user = try temporaryDirectory("user-units")
        defer { try? FileManager.default.removeItem(at: user) }
        let units = try [("netactivityd.service", "netactivityd.service"),
                         ("netactivity-tray.service", "netactivity-tray.service")]
            .map { try Self.installed($0, as: $1, in: user).path }
        let userVerified = try runTool("/usr/bin/systemd-analyze", ["verify", "--user"] + units, bus: nil,
                                       environment: ["XDG_RUNTIME_DIR": user.path])
        #expect(userVerified.succeeded && userVerified.stdout.isEmpty && userVerified.stderr.isEmpty, "\(userVerified)")
    }

    @Test func theSystemUnitsExposureIsAtMostTwo() throws {
        let folder = try temporaryDirectory("units")
        defer { try? FileManager.default.removeItem(at: folder) }
        let unit = try Self.installed("netactivityd-system.service", as: "netactivityd.service", in: folder)
        let rated = try runTool("/usr/bin/systemd-analyze", ["security", "--offline=true", unit.path], bus: nil)
        let line = try #require(rated.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") },
                                "\(rated)")
        let score = try #require(Double(line.split(separator: ": ").last?.split(separator: " ").first ?? ""))
        #expect(score <= 2.0, "\(line)")
        // The rating names the user and the capabilities it was given, as written.
        #expect(!rated.stdout.contains("✗ User=/DynamicUser="), "\(rated.stdout)")
    }
}
