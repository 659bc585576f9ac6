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

    /// The path, from the tree's root (`/user.slice/…/app-gnome-firefox\x2desr-4711.scope`), of the cgroup whose
    /// id is `id`; nil when it is gone. A cgroup's id is its directory's inode number, so the tree is walked
    /// (a few hundred directories, and only when an app first passes the threshold).
    public func path(ofID id: UInt64) -> String? {
        if id == inode(of: root) { return "/" }
        return find(id, under: root, relative: "")
    }

    private func inode(of path: String) -> UInt64? {
        var status = stat()
        return stat(path, &status) == 0 ? UInt64(status.st_ino) : nil
    }

    private func find(_ id: UInt64, under directory: String, relative: String) -> String? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        var children: [String] = []
        while let entry = readdir(stream) {
            guard entry.pointee.d_type == UInt8(DT_DIR) else { continue }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            if UInt64(entry.pointee.d_ino) == id { return relative + "/" + name }
            children.append(name)
        }
        for child in children {
            if let found = find(id, under: directory + "/" + child, relative: relative + "/" + child) { return found }
        }
        return nil
    }

    /// The first process listed in a cgroup (`path` from the tree's root); nil when none is.
    public func firstProcess(in path: String) -> UInt32? {
        guard let text = readSmallTextFile(atPath: root + path + "/cgroup.procs") else { return nil }
        return text.split(separator: "\n").first.flatMap { UInt32($0) }
    }
}
