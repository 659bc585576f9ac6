import NetworkActivityInterface
@testable import NetworkActivityService
import Testing
import TrafficCounters

/// What the service reads of cgroups for measured traffic: where the tree is, which app a cgroup holds, and whose
/// session may see it.
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

    @Test func withoutACgroup2MountThereIsNoTree() {
        #expect(CgroupTree.mountPoint(inMountInfo: "32 30 0:28 / /sys/fs/cgroup/systemd rw - cgroup cgroup rw,name=systemd") == nil)
    }

    @Test(arguments: [
        ("/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-firefox\\x2desr-4711.scope", "firefox-esr"),
        ("/user.slice/user-1000.slice/user@1000.service/app.slice/app-flatpak-org.gnome.Maps-12.scope", "org.gnome.Maps"),
        ("/user.slice/user-1000.slice/user@1000.service/app.slice/app-org.kde.dolphin@0d4c.service", "org.kde.dolphin"),
        ("/system.slice/apt-daily.service", "apt-daily.service"),
    ])
    func aCgroupsAppIsItsUnitsDesktopIDOrElseItsUnit(path: String, application: String) {
        let app = CgroupApplication(path: path, tree: CgroupTree(root: "/nonexistent"))
        #expect(app?.application == application && app?.label.text == application && app?.path == path)
    }

    @Test func theTreesRootHoldsNoApp() {
        #expect(CgroupApplication(path: "/", tree: CgroupTree(root: "/nonexistent")) == nil)
    }

    @Test(arguments: [
        ("/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-firefox\\x2desr-4711.scope", true),
        ("/user.slice/user-1001.slice/user@1001.service/app.slice/app-gnome-firefox\\x2desr-4711.scope", false),
        ("/user.slice/user-1001.slice/session-3.scope", false),
        ("/system.slice/apt-daily.service", true),
        ("/machine.slice/libpod-1234.scope", true),
    ])
    func aSessionSeesItsOwnUsersAppsAndTheMachinesServices(cgroup: String, shows: Bool) {
        let record = ActivityDetails(id: 1, label: "x", owner: cgroup, startedAt: 0, user: 0, source: .traffic)
        #expect(TrafficVisibility.shows(record, toUser: 1000) == shows)
    }

    @Test func aUsersAppsTrafficIsReadByThatUserRootAndTheServiceAloneAndNeverBroadcast() {
        let app = ActivityDetails(id: 1, label: "x", owner: "/user.slice/user-1000.slice/app-gnome-x-1.scope",
                                  startedAt: 0, user: 1000, source: .traffic)
        let service = ActivityDetails(id: 2, label: "x", owner: "/system.slice/apt-daily.service", startedAt: 0,
                                      user: 0, source: .traffic)
        #expect(TrafficVisibility.isPrivate(app) && !TrafficVisibility.isPrivate(service))
        for (user, reads) in [(UInt32(1000), true), (0, true), (113, true), (1001, false)] as [(UInt32, Bool)] {
            #expect(TrafficVisibility.mayRead(app, user: user, serviceUser: 113) == reads, "user \(user)")
            #expect(TrafficVisibility.mayRead(service, user: user, serviceUser: 113))
        }
        #expect(!TrafficVisibility.mayRead(app, user: nil, serviceUser: 0))
    }

    @Test func aPersonsChoiceLeavesAppsOut() {
        #expect(TrafficChoice().shows("firefox-esr"))
        #expect(!TrafficChoice(only: ["org.gnome.Maps"]).shows("firefox-esr"))
        #expect(TrafficChoice(only: ["org.gnome.Maps"]).shows("org.gnome.Maps"))
        #expect(!TrafficChoice(ignored: ["firefox-esr"]).shows("firefox-esr"))
    }
}
