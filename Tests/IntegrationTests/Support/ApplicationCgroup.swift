import Foundation

/// A control group made for one test and named like an application's systemd unit, so that a client placed in it
/// looks to the service like an application that GNOME, KDE or Flatpak started, in the hierarchy that systemd
/// names units in (the unified one, or the `name=systemd` one of a hybrid set-up).
///
/// A desktop's app is where systemd puts it (`desktopApp:user:`), `/user.slice/user-UID.slice/user@UID.service/
/// app.slice/app-….scope`, its unit's number the test's own; the folders above it are made where missing and
/// removed after, when this one made them and they are empty (another copy of the suite may be using them).
/// Anything else (`unitName:`) is in a folder of the test's own at the top, in no user's slice: the machine's.
final class ApplicationCgroup {
    /// The unit's folder: a process whose id is written to its `cgroup.procs` moves into it.
    let unit: URL
    /// The folders this one made, outermost first: removed innermost first.
    private var made: [URL] = []

    /// Whether this machine lets a test make one: as root, with a writable systemd hierarchy.
    static let canBeMade: Bool = {
        guard getuid() == 0, let root = hierarchyRoot() else { return false }
        let probe = root.appendingPathComponent("netactivity-probe-\(getpid())-\(UUID().uuidString.prefix(8))")
        guard mkdir(probe.path, 0o755) == 0 else { return false }
        rmdir(probe.path)
        return true
    }()

    /// A desktop's app of `user`, its unit `PREFIX-NUMBER.scope`: `app-gnome-firefox\x2desr` for GNOME's launch
    /// of firefox-esr.desktop.
    convenience init(desktopApp prefix: String, user: UInt32) throws {
        let number = "\(getpid())\(UInt32.random(in: 10_000...99_999))"
        try self.init(["user.slice", "user-\(user).slice", "user@\(user).service", "app.slice", "\(prefix)-\(number).scope"])
    }

    /// - Parameters:
    ///   - unitName: the unit's name, such as `apt-daily.service`.
    ///   - slice: a slice to make it in, such as `system.slice`.
    convenience init(unitName: String, slice: String? = nil) throws {
        try self.init(["netactivity-test-\(getpid())-\(UUID().uuidString.prefix(8))", slice, unitName].compactMap { $0 })
    }

    private init(_ folders: [String]) throws {
        guard let root = Self.hierarchyRoot() else { throw TestFailure("no writable systemd cgroup hierarchy") }
        unit = folders.reduce(root) { $0.appendingPathComponent($1) }
        // Another copy of the suite may remove a folder above between two mkdirs: then the chain is made again.
        for _ in 0..<5 {
            var folder = root
            var failure: Int32 = 0
            for name in folders {
                folder = folder.appendingPathComponent(name)
                if mkdir(folder.path, 0o755) == 0 {
                    made.append(folder)
                } else if errno != EEXIST {
                    failure = errno
                    break
                }
            }
            if failure == 0 { return }
            guard failure == ENOENT else {
                throw TestFailure("cannot make \(folder.path): \(String(cString: strerror(failure)))")
            }
        }
        throw TestFailure("cannot make \(unit.path): its folders kept going away")
    }

    /// The unit's path from the hierarchy's root, as the kernel's cgroup v2 tree names it.
    var path: String {
        let root = Self.hierarchyRoot()?.path ?? ""
        return String(unit.path.dropFirst(root.count))
    }

    /// Its cgroup v2 id, which the kernel keys its counts by: its folder's inode number.
    var id: UInt64 {
        get throws {
            var status = stat()
            guard stat(unit.path, &status) == 0 else { throw TestFailure("\(unit.path) is gone") }
            return UInt64(status.st_ino)
        }
    }

    /// Removes the groups it made, once the processes placed in them have exited.
    deinit {
        for folder in made.reversed() { rmdir(folder.path) }
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
