// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity

/// The connections that have read the service's activities or history (`GetActivities`, `ListActivities`,
/// `GetHistory`), with their Unix users: the only ones told, by signals sent to each alone, of changes to work
/// private to a user (`SourceReport.privateTo`), and only of what `AccessRules.maySee` lets them see. A listener
/// that never read has nothing to update, so nobody else learns that such work exists or changed (logind sends a
/// user's sessions' changes the same way).
struct ActivityReaders {
    private var users: [String: UInt32] = [:]

    /// `name`, of Unix user `user` (nil: the bus did not tell, and it is told nothing private), read.
    mutating func read(_ name: String, user: UInt32?) {
        guard let user, users[name] == nil else { return }
        users[name] = user
    }

    /// `name` left the bus.
    mutating func forget(_ name: String) {
        users[name] = nil
    }

    /// Every reader, in a stable order: for what everyone may see.
    var everyone: [BusName] {
        users.keys.sorted().compactMap { try? BusName($0) }
    }

    /// The readers who may see work private to any of `privateTo`, in a stable order.
    func destinations(seeing privateTo: Set<UInt32>, serviceUser: UInt32) -> [BusName] {
        users.filter { _, reader in
            privateTo.contains { AccessRules.maySee(privateTo: $0, reader: reader, serviceUser: serviceUser) }
        }.keys.sorted().compactMap { try? BusName($0) }
    }
}
