// SPDX-License-Identifier: Apache-2.0
import NetworkActivityInterface

/// Whose measured traffic a session shows: its own user's apps and the machine's services, never another user's
/// apps. An app belongs to the user whose slice its cgroup is in (`/user.slice/user-1000.slice/…`), whoever owns
/// its sockets (`sudo apt` in a terminal is the terminal's user's); a cgroup in no user's slice is the machine's
/// (`/system.slice/apt-daily.service`).
enum TrafficVisibility {
    static func shows(_ record: ActivityDetails, toUser user: UInt32) -> Bool {
        guard let sliceUser = sliceUser(ofCgroup: record.owner) else { return true }
        return sliceUser == user
    }

    /// The user of the `user-UID.slice` a cgroup is in; nil for one in none.
    static func sliceUser(ofCgroup path: String) -> UInt32? {
        for unit in path.split(separator: "/") where unit.hasPrefix("user-") && unit.hasSuffix(".slice") {
            return UInt32(unit.dropFirst("user-".count).dropLast(".slice".count))
        }
        return nil
    }
}
