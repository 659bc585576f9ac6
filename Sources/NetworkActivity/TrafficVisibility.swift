// SPDX-License-Identifier: Apache-2.0
/// Whose an app's measured traffic is, from the cgroup it runs in. systemd puts each user's apps under
/// `/user.slice/user-UID.slice/` at the top of the hierarchy (`user@UID.service/app.slice/app-….scope`), whoever
/// owns their sockets (`sudo apt` in a terminal is the terminal's user's); a cgroup anywhere else is the
/// machine's (`/system.slice/apt-daily.service`), and so is a container's `…/user.slice/user-1000.slice/…` under
/// `machine.slice`, whose users are not the host's.
///
/// A user's app is private to that user (`SourceReport.privateTo`, `AccessRules.maySee`); the machine's are
/// everyone's. A session shows its own user's apps and the machine's, never another user's.
public enum TrafficVisibility {
    /// The user whose slice holds the cgroup at `path` (from the hierarchy's root); nil for the machine's.
    public static func sliceUser(ofCgroup path: String) -> UInt32? {
        let units = path.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        guard units.count >= 3, units[0].isEmpty, units[1] == "user.slice",
              units[2].hasPrefix("user-"), units[2].hasSuffix(".slice") else { return nil }
        let number = units[2].dropFirst("user-".count).dropLast(".slice".count)
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return UInt32(number)
    }

    /// The user whose traffic a cgroup's is: its slice's user, or root for the machine's. A caller's activity
    /// takes the rate measured in its cgroup only when this is the caller's own user.
    public static func owner(ofCgroup path: String) -> UInt32 {
        sliceUser(ofCgroup: path) ?? 0
    }

    /// The user a count, a followed app, a history entry and a usage row belong to: the slice's user of the
    /// cgroup at `path`, whoever the sockets' owner says it is. Outside every user's slice (the machine's
    /// services, a container), the sockets' owner as the kernel's `bpf_get_socket_uid` reads it (`socketUser`)
    /// is believed only in the machine's own network namespace (`inMachinesNetwork`): elsewhere it is the word
    /// of whatever user namespace owns that network, which any user can make (`unshare -Urn` makes its maker
    /// root there, and `/etc/subuid` any uid listed), so the app is the machine's, root's, claiming no user. A
    /// cgroup gone before it was named (`path` nil) is judged by the same network rule.
    public static func user(ofCgroup path: String?, socketUser: UInt32, inMachinesNetwork: Bool) -> UInt32 {
        if let path, let user = sliceUser(ofCgroup: path) { return user }
        return inMachinesNetwork ? socketUser : 0
    }

    /// Whether a session of `user` shows an app measured in the cgroup at `path`: its own, or the machine's.
    public static func shows(cgroup path: String, toUser user: UInt32) -> Bool {
        shows(sliceUser: sliceUser(ofCgroup: path), toUser: user)
    }

    /// Whether a session of `user` shows what ran in the slice of `sliceUser` (nil: the machine's). Root's
    /// session too shows only root's and the machine's: another user's apps are read with `--system`.
    public static func shows(sliceUser: UInt32?, toUser user: UInt32) -> Bool {
        sliceUser.map { $0 == user } ?? true
    }
}
