import Foundation

/// A control group made for one test and named like an application's systemd unit, so that a client placed in it
/// looks to the service like an application that GNOME, KDE or Flatpak started. It is made at the root of the
/// hierarchy that systemd names units in (the unified one, or the `name=systemd` one of a hybrid set-up), in a
/// folder of the test's own, which goes with it.
final class ApplicationCgroup {
    /// The unit's folder: a process whose id is written to its `cgroup.procs` moves into it.
    let unit: URL
    private let folder: URL

    /// Whether this machine lets a test make one: as root, with a writable systemd hierarchy.
    static let canBeMade: Bool = {
        guard getuid() == 0, let root = hierarchyRoot() else { return false }
        let probe = root.appendingPathComponent("netactivity-probe-\(getpid())-\(UUID().uuidString.prefix(8))")
        guard mkdir(probe.path, 0o755) == 0 else { return false }
        rmdir(probe.path)
        return true
    }()

    /// - Parameter unitName: the unit's name, such as `app-gnome-firefox\x2desr-4711.scope`.
    init(unitName: String) throws {
        guard let root = Self.hierarchyRoot() else { throw TestFailure("no writable systemd cgroup hierarchy") }
        folder = root.appendingPathComponent("netactivity-test-\(getpid())-\(UUID().uuidString.prefix(8))")
        unit = folder.appendingPathComponent(unitName)
        guard mkdir(folder.path, 0o755) == 0, mkdir(unit.path, 0o755) == 0 else {
            throw TestFailure("cannot make \(unit.path): \(String(cString: strerror(errno)))")
        }
    }

    /// Removes the groups, once the processes placed in them have exited.
    deinit {
        rmdir(unit.path)
        rmdir(folder.path)
    }

    /// The mount point of the unified hierarchy, else of the `name=systemd` one, from `/proc/self/mountinfo`.
    private static func hierarchyRoot() -> URL? {
        guard let mounts = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return nil }
        var named: URL?
        for line in mounts.split(separator: "\n") {
            let halves = line.components(separatedBy: " - ")
            guard halves.count == 2 else { continue }
            let fields = halves[0].split(separator: " "), source = halves[1].split(separator: " ")
            guard fields.count >= 5, fields[3] == "/", source.count >= 3 else { continue }
            let mountPoint = URL(fileURLWithPath: String(fields[4]))
            if source[0] == "cgroup2" { return mountPoint }
            if source[0] == "cgroup", source[2].split(separator: ",").contains("name=systemd") { named = mountPoint }
        }
        return named
    }
}
