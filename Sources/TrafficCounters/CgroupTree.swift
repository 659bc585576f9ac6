// SPDX-License-Identifier: Apache-2.0
import ProgramSupport
#if canImport(Glibc)
import Glibc
#endif

/// The cgroup v2 tree that systemd puts every unit in: where it is mounted, and the cgroup behind an id that the
/// kernel counted by.
public struct CgroupTree: Sendable {
    /// Where the tree is mounted: `/sys/fs/cgroup`, or `/sys/fs/cgroup/unified` beside the v1 controllers.
    public let root: String

    public init(root: String) {
        self.root = root
    }

    /// The tree this process sees, from `/proc/self/mountinfo`; nil when no cgroup2 is mounted.
    public static func mounted() -> CgroupTree? {
        guard let text = readSmallTextFile(atPath: "/proc/self/mountinfo", maxBytes: 1 << 20) else { return nil }
        return mountPoint(inMountInfo: text).map(CgroupTree.init(root:))
    }

    /// The first cgroup2 mount of a `mountinfo` text: its fifth field, where the filesystem type after " - " is
    /// `cgroup2`.
    public static func mountPoint(inMountInfo text: String) -> String? {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let separator = fields.firstIndex(of: "-"), separator >= 5, separator + 1 < fields.count,
                  fields[separator + 1] == "cgroup2" else { continue }
            return unescapedMountPath(fields[4])
        }
        return nil
    }

    /// mountinfo writes a space, tab, newline and backslash of a path as `\040`, `\011`, `\012` and `\134`.
    private static func unescapedMountPath(_ field: Substring) -> String {
        var bytes: [UInt8] = []
        var rest = field.utf8[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "\\"), rest.count >= 3,
               let value = UInt8(String(decoding: rest.prefix(3), as: UTF8.self), radix: 8) {
                bytes.append(value)
                rest = rest.dropFirst(3)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Every cgroup's path from the tree's root (`/user.slice/…/app-gnome-firefox\x2desr-4711.scope`), by its id:
    /// a cgroup's id is its directory's inode number, which only a walk of the tree finds.
    public func allPaths() -> [UInt64: String] {
        var paths: [UInt64: String] = [:]
        if let rootID = inode(of: root) { paths[rootID] = "/" }
        walk(root, relative: "", into: &paths)
        return paths
    }

    /// The cgroups under `path` (from the tree's root) down to its units: every folder in it and, below each
    /// slice among them, in that slice (the first `maximumSlices`), but nothing inside a unit's own cgroup
    /// (`app-….scope`, `….service`), where a user who makes cgroups by the thousand would make them. A listing of a
    /// folder or two, by id.
    public func units(under path: String, maximumSlices: Int = 32) -> [UInt64: String] {
        var paths: [UInt64: String] = [:]
        var slices = [path]
        var listed = 0
        while let slice = slices.popLast(), listed <= maximumSlices {
            listed += 1
            for (id, name) in children(of: root + slice) {
                paths[id] = slice + "/" + name
                if name.hasSuffix(".slice") { slices.append(slice + "/" + name) }
            }
        }
        return paths
    }

    /// Whether the cgroup `id` is still at `path` (from the tree's root) and holds a process: an app that exited
    /// leaves its cgroup empty (`populated 0`) until systemd removes it, and a new one at the same path is another.
    public func holdsProcesses(_ id: UInt64, at path: String) -> Bool {
        guard inode(of: root + path) == id,
              let events = readSmallTextFile(atPath: root + path + "/cgroup.events") else { return false }
        return !events.split(separator: "\n").contains("populated 0")
    }

    private func inode(of path: String) -> UInt64? {
        var status = stat()
        return stat(path, &status) == 0 ? UInt64(status.st_ino) : nil
    }

    private func walk(_ directory: String, relative: String, into paths: inout [UInt64: String]) {
        for (id, name) in children(of: directory) {
            paths[id] = relative + "/" + name
            walk(directory + "/" + name, relative: relative + "/" + name, into: &paths)
        }
    }

    /// The folders in `directory`, by inode: its child cgroups.
    private func children(of directory: String) -> [(id: UInt64, name: String)] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var children: [(id: UInt64, name: String)] = []
        while let entry = readdir(stream) {
            guard entry.pointee.d_type == UInt8(DT_DIR) else { continue }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            children.append((UInt64(entry.pointee.d_ino), name))
        }
        return children
    }

    /// The first process listed in a cgroup (`path` from the tree's root); nil when none is.
    public func firstProcess(in path: String) -> UInt32? {
        guard let text = readSmallTextFile(atPath: root + path + "/cgroup.procs") else { return nil }
        return text.split(separator: "\n").first.flatMap { UInt32($0) }
    }
}
