// SPDX-License-Identifier: Apache-2.0
import ProgramSupport
import DBusKit
import NetworkActivity
import NetworkActivityInterface

/// Where `GetUsage` and `ClearUsage` are answered: the system service's own totals (`TrafficSource`), or, in a
/// session, the system service, asked for the session's user.
protocol DataUsageAnswering: AnyObject {
    /// The rows of `since` and later that `reader` may read, per day or summed over the days, the kernel's counts
    /// taken first.
    func usageRows(since: UsageDay?, daily: Bool, readableBy reader: UInt32, serviceUser: UInt32) -> [UsageRow]
    /// Forgets the rows `reader` may clear; returns how many.
    func clearUsage(for reader: UInt32, serviceUser: UInt32) -> Int
}

/// A session's way to the system service's usage: it sends the call on and answers with the reply.
protocol DataUsageForwarding: AnyObject {
    /// Asks the system service; `answer` is called on the loop with its reply.
    func forward(usageSince since: String, daily: Bool, answer: @escaping (Result<[UsageRecord], DBusError>) -> Void) -> Bool
    func forwardClearUsage(answer: @escaping (Result<UInt32, DBusError>) -> Void) -> Bool
}

extension ActivityEndpoint {
    /// `GetUsage`: the caller's user's rows and the machine's services', from the day `since`.
    func usage(for call: Message, since: String, daily: Bool) throws(DBusError) -> MethodAnswer<[UsageRecord]> {
        let first: UsageDay?
        if since.isEmpty {
            first = nil
        } else {
            guard let day = UsageDay(since) else {
                throw DBusError(.invalidArgs, "since must be a day as YYYY-MM-DD, or empty: \"\(since)\"")
            }
            first = day
        }
        if let dataUsage {
            let reader = try knownUser(of: call.callerName)
            usageReaders.read(call.callerName, user: reader)
            return .now(dataUsage.usageRows(since: first, daily: daily, readableBy: reader, serviceUser: ownUser)
                .map(UsageRecord.init))
        }
        // The session's user's and the machine's, as its activities: root's session too.
        let sessionUser = ownUser
        guard let usageForwarding, usageForwarding.forward(usageSince: since, daily: daily, answer: { [weak object] result in
            switch result {
            case .success(let records):
                object?.answer(call, with: records.filter {
                    TrafficVisibility.shows(sliceUser: $0.privateTo, toUser: sessionUser)
                })
            case .failure(let error): object?.answer(call, failing: error)
            }
        }) else { throw notCountingError }
        return .later
    }

    /// `ClearUsage`: forgets the caller's own apps' rows (root: every row).
    func clearUsage(for call: Message) throws(DBusError) -> MethodAnswer<UInt32> {
        if let dataUsage {
            let reader = try knownUser(of: call.callerName)
            let cleared = dataUsage.clearUsage(for: reader, serviceUser: ownUser)
            if cleared > 0 { logger.info("\(call.callerName) cleared \(cleared) rows of the data usage") }
            return .now(UInt32(cleared))
        }
        guard let usageForwarding, usageForwarding.forwardClearUsage(answer: { [weak object] result in
            switch result {
            case .success(let count): object?.answer(call, with: count)
            case .failure(let error): object?.answer(call, failing: error)
            }
        }) else { throw notCountingError }
        return .later
    }

    /// The totals changed: rows everyone may read (`everyone`), or rows private to `users`. Each reader that may
    /// see one is told, alone; a session, told by the system service, tells its whole bus.
    func usageChanged(everyone: Bool, users: Set<UInt32>) {
        let destinations = everyone ? usageReaders.everyone : usageReaders.destinations(seeing: users, serviceUser: ownUser)
        for destination in destinations {
            object.emit(object.makeSignal(ServiceMembers.usageChanged, to: destination))
        }
    }

    /// The system service's usage changed, for this session's user: every listener on this bus may read it.
    func systemUsageChanged() {
        object.emit(object.makeSignal(ServiceMembers.usageChanged))
    }

    private var notCountingError: DBusError {
        DBusError(.notCountingTraffic, trafficState.reason.isEmpty
                  ? "the system service does not count apps' traffic" : trafficState.reason)
    }
}

extension UsageRecord {
    init(_ row: UsageRow) {
        self.init(application: row.entry.application, label: row.label, user: row.entry.user,
                  network: row.entry.network, isMetered: row.entry.metered, received: row.bytes.received,
                  sent: row.bytes.sent, day: row.entry.day.description, privateTo: row.entry.privateTo)
    }
}
