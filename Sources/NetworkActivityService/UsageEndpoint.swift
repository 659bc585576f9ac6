// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity
import NetworkActivityInterface
import ProgramSupport

/// Where the data usage is: the system service's own totals, kept from the kernel's counts (`TrafficSource`).
protocol DataUsageAnswering: AnyObject {
    /// The rows of `since` and later that `reader` may read, per day or summed over the days, the kernel's counts
    /// taken first.
    func usageRows(since: UsageDay?, daily: Bool, readableBy reader: UInt32, serviceUser: UInt32) -> [UsageRow]
    /// Forgets the rows `reader` may clear; returns how many.
    func clearUsage(for reader: UInt32, serviceUser: UInt32) -> Int
}

/// The system service's object at `ServiceNames.usagePath`: the data each app used, each caller its own user's
/// and the machine's services' (`AccessRules.maySee`), and `UsageChanged` to the readers who may see a change.
/// A session serves the same interface through `SystemServiceRelay`.
final class UsageEndpoint {
    private(set) var object: ServedObject!
    let callers: CallerDirectory
    private let ownUser: UInt32
    private let logger: Logger
    /// The totals; nil where the service counts no traffic, which `notCounting` says why.
    weak var dataUsage: (any DataUsageAnswering)?
    private let notCounting: () -> DBusError
    /// The connections that read `GetUsage`, told of its changes.
    private var readers = ActivityReaders()

    init(callers: CallerDirectory, ownUser: UInt32, logger: Logger, send: @escaping (Message) -> Void,
         notCounting: @escaping () -> DBusError) {
        self.callers = callers
        self.ownUser = ownUser
        self.logger = logger
        self.notCounting = notCounting
        object = ServedObject(self, at: ServiceNames.usagePath, interfaces: [Self.interface],
                              introspectionXML: Self.introspectionXML, send: send)
    }

    /// `GetUsage`: the caller's user's rows and the machine's services', from the day `since`.
    func usage(for caller: String, since: String, daily: Bool) throws(DBusError) -> [UsageRecord] {
        let first: UsageDay?
        if since.isEmpty {
            first = nil
        } else {
            guard let day = UsageDay(since) else {
                throw DBusError(.invalidArgs, "since must be a day as YYYY-MM-DD, or empty: \"\(since)\"")
            }
            first = day
        }
        guard let dataUsage else { throw notCounting() }
        let reader = try callers.knownUser(of: caller)
        readers.read(caller, user: reader)
        return dataUsage.usageRows(since: first, daily: daily, readableBy: reader, serviceUser: ownUser)
            .map(UsageRecord.init)
    }

    /// `ClearUsage`: forgets the caller's own apps' rows (root: every row).
    func clearUsage(for caller: String) throws(DBusError) -> UInt32 {
        guard let dataUsage else { throw notCounting() }
        let cleared = dataUsage.clearUsage(for: try callers.knownUser(of: caller), serviceUser: ownUser)
        if cleared > 0 { logger.info("\(caller) cleared \(cleared) rows of the data usage") }
        return UInt32(cleared)
    }

    /// The totals changed: rows everyone may read (`everyone`), or rows private to `users`. Each reader that may
    /// see one is told, alone.
    func usageChanged(everyone: Bool, users: Set<UInt32>) {
        let destinations = everyone ? readers.everyone : readers.destinations(seeing: users, serviceUser: ownUser)
        for destination in destinations {
            object.emit(object.makeSignal(UsageMembers.usageChanged, to: destination))
        }
    }

    /// A caller's unique name left the bus.
    func callerLeft(_ name: String) {
        readers.forget(name)
    }
}

extension UsageRecord {
    init(_ row: UsageRow) {
        self.init(application: row.entry.application, label: row.label, user: row.entry.user,
                  network: row.entry.network, isMetered: row.entry.metered, received: row.bytes.received,
                  sent: row.bytes.sent, day: row.entry.day.description, privateTo: row.entry.privateTo)
    }
}
