import DBusKit
import Foundation
import ServiceHarness

/// The real `packagekitd`, with its apt backend, on a private system bus of the test's own with the polkit daemon
/// it asks, and a repository of one package the test builds, served over loopback HTTP by a server the test can
/// slow down. packagekitd runs in a mount namespace of its own whose `/etc/apt`, `/var/lib/apt`, `/var/cache` and
/// `/var/lib/dpkg` are folders of the test: the machine's apt state is never read or written. Needs root.
final class PrivatePackageKit {
    static let packageName = "na-test-payload"
    static let payloadBytes = 3_000_000

    let bus: PrivateBus
    let folder: URL
    private let polkit: Process
    private let server: BackgroundProcess
    private var daemon: Process?

    static var isAvailable: Bool {
        geteuid() == 0 && ["/usr/libexec/packagekitd", "/usr/lib/polkit-1/polkitd", "/usr/bin/pkcon"].allSatisfy {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    init() throws {
        bus = try systemLikeBus(including: [
            URL(fileURLWithPath: "/etc/dbus-1/system.d/org.freedesktop.PackageKit.conf"),
            URL(fileURLWithPath: "/usr/share/dbus-1/system.d/org.freedesktop.PolicyKit1.conf"),
        ])
        folder = bus.directory.appendingPathComponent("packagekit")
        let polkit = Process()
        self.polkit = polkit
        polkit.executableURL = URL(fileURLWithPath: "/usr/lib/polkit-1/polkitd")
        polkit.arguments = ["--no-debug"]
        polkit.environment = ["PATH": "/usr/bin:/bin", "DBUS_SYSTEM_BUS_ADDRESS": bus.address]
        polkit.standardOutput = FileHandle.nullDevice
        polkit.standardError = try FileHandle(forWritingTo: touch(bus.directory.appendingPathComponent("polkit.log")))
        try withSignalsUnblocked { try polkit.runHandingOverFiles() }
        let repository = folder.appendingPathComponent("repository")
        try Self.buildPackage(into: repository, scratch: folder.appendingPathComponent("build"))
        try Self.speed(unlimited: true, of: repository)
        server = try BackgroundProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", Self.serverScript,
                                                                                  repository.path], bus: bus)
        guard let port = try server.nextLine().flatMap({ Int($0) }) else {
            throw TestFailure("the repository's server did not start: \(server.stderr)")
        }
        try makeAptRoot(port: port)
        try awaitOwner(of: "org.freedesktop.PolicyKit1", on: bus)
        try start()
    }

    deinit {
        stop()
        polkit.terminate()
        _ = waitForExit(polkit, timeout: .seconds(10))
        server.process.terminate()
    }

    /// Starts packagekitd, and waits until it owns its name.
    func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        let root = folder.appendingPathComponent("root").path
        process.arguments = ["--mount", "--propagation", "private", "/bin/sh", "-ec", """
            mount --bind \(root)/etc-apt /etc/apt
            mount --bind \(root)/var-lib-apt /var/lib/apt
            mount --bind \(root)/var-lib-dpkg /var/lib/dpkg
            mount --bind \(root)/var-cache /var/cache
            mount --bind \(root)/var-lib-packagekit /var/lib/PackageKit
            exec /usr/libexec/packagekitd --keep-environment --disable-timer
            """]
        process.environment = ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "DBUS_SYSTEM_BUS_ADDRESS": bus.address]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: touch(bus.directory.appendingPathComponent(
            "packagekitd-\(UUID().uuidString.prefix(6)).log")))
        try withSignalsUnblocked { try process.runHandingOverFiles() }
        daemon = process
        try awaitOwner(of: "org.freedesktop.PackageKit", on: bus)
    }

    /// Stops packagekitd as a crash would: SIGKILL.
    func stop() {
        guard let daemon, daemon.isRunning else { return }
        kill(daemon.processIdentifier, SIGKILL)
        _ = waitForExit(daemon, timeout: .seconds(10))
    }

    /// Limits the server to `bytesPerSecond` for the package, and delays every answer by `delay`.
    func slow(bytesPerSecond: Int, delay: Duration = .zero) throws {
        try "\(bytesPerSecond) \(Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)"
            .write(to: folder.appendingPathComponent("repository/speed"), atomically: true, encoding: .utf8)
    }

    func unlimit() throws {
        try Self.speed(unlimited: true, of: folder.appendingPathComponent("repository"))
    }

    /// Reads the repository's index, at full speed: what a download needs first.
    func refresh() throws {
        try unlimit()
        let refreshed = try pkcon(["refresh"]).result(within: .seconds(60))
        guard refreshed.succeeded else { throw TestFailure("pkcon refresh failed: \(refreshed)") }
    }

    /// `pkcon ARGUMENTS` on the private bus, started and left running, in packagekitd's mount namespace: `pkcon
    /// download` copies the package from packagekitd's cache, which only that namespace has.
    func pkcon(_ arguments: [String]) throws -> StartedTool {
        guard let daemon, daemon.isRunning else { throw TestFailure("packagekitd does not run") }
        return try StartedTool("/usr/bin/nsenter", ["--mount=/proc/\(daemon.processIdentifier)/ns/mnt", "/usr/bin/pkcon",
                                                    "--noninteractive"] + arguments, bus: bus)
    }

    /// Where `pkcon download` may put the package, and the package cache of packagekitd, emptied: a download
    /// downloads again.
    func downloadFolder() throws -> URL {
        let archives = folder.appendingPathComponent("root/var-cache/apt/archives")
        for file in (try? FileManager.default.contentsOfDirectory(atPath: archives.path)) ?? [] where file.hasSuffix(".deb") {
            try FileManager.default.removeItem(at: archives.appendingPathComponent(file))
        }
        let downloads = folder.appendingPathComponent("downloads-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        return downloads
    }

    private func makeAptRoot(port: Int) throws {
        let root = folder.appendingPathComponent("root")
        for path in ["etc-apt/apt.conf.d", "etc-apt/sources.list.d", "etc-apt/preferences.d", "etc-apt/trusted.gpg.d",
                     "var-lib-apt/lists/partial", "var-cache/apt/archives/partial", "var-cache/PackageKit",
                     "var-lib-dpkg/updates", "var-lib-dpkg/info", "var-lib-packagekit"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(path),
                                                    withIntermediateDirectories: true)
        }
        // Nothing installed: the package to download is new.
        for file in ["var-lib-dpkg/status", "var-lib-dpkg/available"] {
            try touch(root.appendingPathComponent(file))
        }
        try "deb [trusted=yes] http://127.0.0.1:\(port)/ ./\n"
            .write(to: root.appendingPathComponent("etc-apt/sources.list"), atomically: true, encoding: .utf8)
    }

    private static func speed(unlimited: Bool, of repository: URL) throws {
        try "0 0".write(to: repository.appendingPathComponent("speed"), atomically: true, encoding: .utf8)
    }

    /// A package of incompressible bytes, built with dpkg-deb.
    private static func buildPackage(into repository: URL, scratch: URL) throws {
        let data = scratch.appendingPathComponent("usr/share/\(packageName)")
        let control = scratch.appendingPathComponent("DEBIAN")
        for folder in [data, control, repository] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        var generator = SystemRandomNumberGenerator()
        let payload = Data((0..<payloadBytes / 8).flatMap { _ in withUnsafeBytes(of: generator.next()) { Array($0) } })
        try payload.write(to: data.appendingPathComponent("payload"))
        try """
            Package: \(packageName)
            Version: 1.0
            Architecture: all
            Maintainer: netactivity tests <tests@example.invalid>
            Description: bytes for netactivity's PackageKit tests

            """.write(to: control.appendingPathComponent("control"), atomically: true, encoding: .utf8)
        let built = try runTool("/usr/bin/dpkg-deb", ["-Znone", "--root-owner-group", "--build", scratch.path,
                                                      repository.appendingPathComponent("\(packageName)_1.0_all.deb").path],
                                bus: nil)
        guard built.succeeded else { throw TestFailure("dpkg-deb failed: \(built)") }
    }

    /// Indexes the repository (`Packages`, `Release`) and serves it; the package at the speed in the file `speed`
    /// (bytes per second, 0 for no limit, and a delay in seconds before each answer), read again as it goes.
    private static let serverScript = """
        import hashlib, http.server, os, sys, time
        root = sys.argv[1]
        entries = []
        for name in sorted(os.listdir(root)):
            if name.endswith('.deb'):
                data = open(os.path.join(root, name), 'rb').read()
                package, version, arch = name[:-4].split('_')
                entries.append('Package: %s\\nVersion: %s\\nArchitecture: %s\\nMaintainer: tests\\nFilename: ./%s\\n'
                               'Size: %d\\nSHA256: %s\\nDescription: test\\n' % (package, version, arch, name, len(data),
                                                                       hashlib.sha256(data).hexdigest()))
        packages = '\\n'.join(entries).encode()
        open(os.path.join(root, 'Packages'), 'wb').write(packages)
        open(os.path.join(root, 'Release'), 'w').write(
            'Origin: netactivity-tests\\nSuite: test\\nCodename: test\\nDate: %s\\nArchitectures: all amd64\\n'
            'SHA256:\\n %s %d Packages\\n' % (time.strftime('%a, %d %b %Y %H:%M:%S UTC', time.gmtime()),
                                          hashlib.sha256(packages).hexdigest(), len(packages)))
        def speed():
            rate, delay = open(os.path.join(root, 'speed')).read().split()
            return float(rate), float(delay)
        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *arguments, **options):
                super().__init__(*arguments, directory=root, **options)
            def log_message(self, *arguments):
                pass
            def send_head(self):
                time.sleep(speed()[1])
                return super().send_head()
            def copyfile(self, source, target):
                while True:
                    chunk = source.read(16384)
                    if not chunk:
                        return
                    target.write(chunk)
                    rate = speed()[0]
                    if rate > 0 and self.path.endswith('.deb'):
                        time.sleep(len(chunk) / rate)
        server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """
}
