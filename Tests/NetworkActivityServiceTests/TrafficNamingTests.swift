import Foundation
import NetworkActivityInterface
@testable import NetworkActivityService
import Testing
import TrafficCounters

/// What the service reads of cgroups for measured traffic: where the tree is, and which app a cgroup holds.
@Suite struct TrafficNamingTests {
    @Test(arguments: [
        // Debian 12 with systemd's hybrid set-up: v1 controllers beside the unified tree.
        ("""
         30 24 0:26 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,mode=755
         31 30 0:27 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:10 - cgroup2 cgroup2 rw,nsdelegate
         32 30 0:28 / /sys/fs/cgroup/systemd rw,nosuid,nodev,noexec,relatime shared:11 - cgroup cgroup rw,xattr,name=systemd
         """, "/sys/fs/cgroup/unified"),
        ("29 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot",
         "/sys/fs/cgroup"),
        // A mount point with a space, as mountinfo escapes it.
        ("40 1 0:50 / /run/my\\040cgroups rw - cgroup2 none rw", "/run/my cgroups"),
    ])
    func theCgroupTreeIsTheCgroup2Mount(mountInfo: String, root: String) {
        #expect(CgroupTree.mountPoint(inMountInfo: mountInfo) == root)
    }

    /// A user's units are listed from their manager down through its slices, never inside a unit, where a user
    /// could make folders by the thousand; every id it lists is the walk's.
    @Test func aUsersUnitsAreListedDownToTheUnitsAlone() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cgroups-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let manager = "/user.slice/user-1000.slice/user@1000.service"
        let folders = [manager + "/app.slice/app-gnome-firefox\\x2desr-4711.scope/inside",
                       manager + "/app.slice/app-org.gnome.Terminal.slice/vte-spawn-1.scope",
                       manager + "/session.slice/org.gnome.Shell@wayland.service",
                       "/user.slice/user-1001.slice/user@1001.service/app.slice/app-steam-1.scope"]
        for folder in folders {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(String(folder.dropFirst())),
                                                    withIntermediateDirectories: true)
        }
        let tree = CgroupTree(root: root.path)
        let units = tree.units(under: manager)
        #expect(Set(units.values) == [
            manager + "/app.slice", manager + "/app.slice/app-gnome-firefox\\x2desr-4711.scope",
            manager + "/app.slice/app-org.gnome.Terminal.slice",
            manager + "/app.slice/app-org.gnome.Terminal.slice/vte-spawn-1.scope",
            manager + "/session.slice", manager + "/session.slice/org.gnome.Shell@wayland.service",
        ])
        let walked = tree.allPaths()
        for (id, path) in units { #expect(walked[id] == path) }
        #expect(walked.values.contains(manager + "/app.slice/app-gnome-firefox\\x2desr-4711.scope/inside"))
    }

    @Test func withoutACgroup2MountThereIsNoTree() {
        #expect(CgroupTree.mountPoint(inMountInfo: "32 30 0:28 / /sys/fs/cgroup/systemd rw - cgroup cgroup rw,name=systemd") == nil)
    }

    @Test func aPersonsChoiceLeavesAppsOut() {
        #expect(TrafficChoice().shows("firefox-esr"))
        #expect(!TrafficChoice(only: ["org.gnome.Maps"]).shows("firefox-esr"))
        #expect(TrafficChoice(only: ["org.gnome.Maps"]).shows("org.gnome.Maps"))
        #expect(!TrafficChoice(ignored: ["firefox-esr"]).shows("firefox-esr"))
    }
}
