// SPDX-License-Identifier: Apache-2.0
import NetworkActivityInterface

/// Whose measured traffic a session shows, and a caller of the system service reads: its own user's apps and the
/// machine's services, never another user's apps. An app belongs to the user whose slice its cgroup is in (`/user.slice/user-1000.slice/…`), whoever owns
/// its sockets (`sudo apt` in a terminal is the terminal's user's); a cgroup in no user's slice is the machine's
/// (`/system.slice/apt-daily.service`).
enum TrafficVisibility {
    static func shows(_ record: ActivityDetails, toUser user: UInt32) -> Bool {
        guard let sliceUser = sliceUser(ofCgroup: record.owner) else { return true }
        return sliceUser == user
    }

    /// Whether a record is one user's app's measured traffic, which the system service never broadcasts: its
    /// `ActivitiesChanged` leaves it out, and `GetActivities` gives it only to that user, root and its own user.
    static func isPrivate(_ record: ActivityDetails) -> Bool {
        record.source == .traffic && sliceUser(ofCgroup: record.owner) != nil
    }

    /// Whether a caller of Unix user `user` (nil: unknown) may read a record of the system service's.
    static func mayRead(_ record: ActivityDetails, user: UInt32?, serviceUser: UInt32) -> Bool {
        guard isPrivate(record) else { return true }
        guard let user else { return false }
        return user == 0 || user == serviceUser || user == sliceUser(ofCgroup: record.owner)
    }

    /// The user of the `user-UID.slice` a cgroup is in; nil for one in none.
    static func sliceUser(ofCgroup path: String) -> UInt32? {
        for unit in path.split(separator: "/") where unit.hasPrefix("user-") && unit.hasSuffix(".slice") {
            return UInt32(unit.dropFirst("user-".count).dropLast(".slice".count))
        }
        return nil
    }
}
