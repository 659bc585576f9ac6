import NetworkActivity
import Testing

/// Whose an app's measured traffic is, from its cgroup, and who may learn that a user's private work exists.
@Suite struct TrafficVisibilityTests {
    @Test(arguments: [
        ("/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-firefox\\x2desr-4711.scope", UInt32?(1000)),
        ("/user.slice/user-1001.slice/session-3.scope", 1001),
        ("/user.slice/user-0.slice/user@0.service/app.slice/app-gnome-backuptool-4242.scope", 0),
        ("/system.slice/apt-daily.service", nil),
        // A container's own users are not the host's: only the top of the hierarchy names a user's slice.
        ("/machine.slice/libpod-1234.scope/user.slice/user-1000.slice/user@1000.service/app.slice/app-x-1.scope", nil),
        ("/netactivity-test/user-1000.slice/app-gnome-x-1.scope", nil),
        ("/user.slice/user-+5.slice/app-x-1.scope", nil),
        ("/user.slice/user-.slice", nil),
        ("/user.slice", nil),
        ("/", nil),
    ])
    func aUsersAppsAreTheCgroupsUnderTheirSliceAtTheTop(cgroup: String, user: UInt32?) {
        #expect(TrafficVisibility.sliceUser(ofCgroup: cgroup) == user)
        #expect(TrafficVisibility.owner(ofCgroup: cgroup) == user ?? 0)
    }

    /// The slice decides whose an app is, whatever its sockets' owner says; outside every slice the sockets'
    /// owner is believed only in the machine's own network namespace.
    @Test(arguments: [
        // User 65534 in `unshare -Urn` is root to the kernel's socket helper: the slice says 65534.
        ("/user.slice/user-65534.slice/user@65534.service/app.slice/app-gnome-x-1.scope", UInt32(0), false, UInt32(65534)),
        ("/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-x-1.scope", 0, true, 1000),
        // `sudo apt` in a user's terminal is the terminal's user's.
        ("/user.slice/user-1000.slice/session-3.scope", 0, true, 1000),
        // The machine's service, in the machine's network: its sockets' owner.
        ("/system.slice/apt-daily.service", 42, true, 42),
        // A container's in-container uid 1000 is not the host's user 1000.
        ("/machine.slice/libpod-1234.scope", 1000, false, 0),
        ("/machine.slice/libpod-1234.scope/user.slice/user-1000.slice/app-x-1.scope", 1000, false, 0),
    ])
    func whoseTrafficItIsComesFromWhereItRuns(cgroup: String, socketUser: UInt32, inMachinesNetwork: Bool,
                                              user: UInt32) {
        #expect(TrafficVisibility.user(ofCgroup: cgroup, socketUser: socketUser,
                                       inMachinesNetwork: inMachinesNetwork) == user)
    }

    @Test func aCgroupGoneUnnamedIsJudgedByItsNetworkAlone() {
        #expect(TrafficVisibility.user(ofCgroup: nil, socketUser: 1000, inMachinesNetwork: true) == 1000)
        #expect(TrafficVisibility.user(ofCgroup: nil, socketUser: 1000, inMachinesNetwork: false) == 0)
    }

    @Test(arguments: [
        ("/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-firefox\\x2desr-4711.scope", true),
        ("/user.slice/user-1001.slice/user@1001.service/app.slice/app-gnome-firefox\\x2desr-4711.scope", false),
        ("/user.slice/user-1001.slice/session-3.scope", false),
        ("/system.slice/apt-daily.service", true),
        ("/machine.slice/libpod-1234.scope", true),
    ])
    func aSessionSeesItsOwnUsersAppsAndTheMachinesServices(cgroup: String, shows: Bool) {
        #expect(TrafficVisibility.shows(cgroup: cgroup, toUser: 1000) == shows)
    }

    @Test func privateWorkIsSeenByItsUserRootAndTheServiceAlone() {
        for (reader, sees) in [(UInt32?(1000), true), (0, true), (113, true), (1001, false), (nil, false)] {
            #expect(AccessRules.maySee(privateTo: 1000, reader: reader, serviceUser: 113) == sees, "\(String(describing: reader))")
            #expect(AccessRules.maySee(privateTo: nil, reader: reader, serviceUser: 113))
        }
    }
}
