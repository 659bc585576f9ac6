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

    /// Between the test's folder and the unit, such as `user-1000.slice`.
    private let slice: URL?

    /// - Parameters:
    ///   - unitName: the unit's name, such as `app-gnome-firefox\x2desr-4711.scope`.
    ///   - slice: a slice to make it in, such as `user-1000.slice`.
    init(unitName: String, slice sliceName: String? = nil) throws {
        guard let root = Self.hierarchyRoot() else { throw TestFailure("no writable systemd cgroup hierarchy") }
        let folder = root.appendingPathComponent("netactivity-test-\(getpid())-\(UUID().uuidString.prefix(8))")
        let slice = sliceName.map { folder.appendingPathComponent($0) }
        let unit = (slice ?? folder).appendingPathComponent(unitName)
        (self.folder, self.slice, self.unit) = (folder, slice, unit)
        for directory in [folder, slice, unit].compactMap({ $0 }) where mkdir(directory.path, 0o755) != 0 {
            throw TestFailure("cannot make \(directory.path): \(String(cString: strerror(errno)))")
        }
    }

    /// The unit's path from the hierarchy's root, as the kernel's cgroup v2 tree names it.
    var path: String {
        let root = Self.hierarchyRoot()?.path ?? ""
        return String(unit.path.dropFirst(root.count))
    }

    /// Removes the groups, once the processes placed in them have exited.
    deinit {
        rmdir(unit.path)
        if let slice { rmdir(slice.path) }
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
