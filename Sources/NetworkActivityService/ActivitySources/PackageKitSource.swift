// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity
import NetworkActivityInterface
import ProgramSupport

/// Follows PackageKit's transactions on the system bus and reports those that download as activities of the
/// `packagekit` source (`PackageKitTransaction` has the rules). It never stops one: `packagekitd` takes a
/// transaction's methods only from the connection that created it.
///
/// It never starts `packagekitd` (which the bus would start for any call) and never polls: it follows the name's
/// owner, and while `packagekitd` runs, its `TransactionListChanged` and each transaction's `PropertiesChanged`,
/// `Finished` and `Destroy`. What is already running when either starts is read with `GetTransactionList` and
/// `GetAll`. No call waits: a `packagekitd` that never answers leaves the service free.
final class PackageKitSource: SourceAdapter {
    static let bus = FollowedBus.system

    /// `Finished`'s exits of a transaction that was stopped (`pk-enum.h`): cancelled, killed, and cancelled for a
    /// transaction of higher priority.
    static let stoppingExits: Set<UInt32> = [3, 6, 9]

    private let connection: Connection
    private unowned let work: SourceWork
    private let logger: Logger
    /// `packagekitd`'s unique name, "" while it is not running.
    private var owner = ""
    /// The transactions heard of, by object path; nil properties until `GetAll` answered.
    private var transactions: [String: PackageKitTransaction?] = [:]
    /// The application behind each sender of a transaction, found once.
    private var applications: [String: String?] = [:]

    init(connection: Connection, work: SourceWork, configuration: ServiceConfiguration,
         clock: any TimeSource) throws(DBusError) {
        self.connection = connection
        self.work = work
        logger = work.logger
        let daemon = PackageKitInterface.daemon
        try connection.followOwner(of: daemon.busName) { [unowned self] newOwner in ownerChanged(to: newOwner) }
        let listChanged = PackageKitInterface.transactionListChanged.rule(sender: daemon.busName, path: daemon.path)
        try connection.subscribe(to: listChanged) { [unowned self] signal in
            guard let paths = try? PackageKitInterface.transactionListChanged.read(signal) else {
                logger.debug("PackageKit sent a TransactionListChanged of signature \(signal.signature); ignored")
                return
            }
            follow(Set(paths))
        }
        var changes = StandardInterface.propertiesChanged.rule(sender: daemon.busName)
        changes.arguments = [0: PackageKitInterface.transactionInterface.rawValue]
        try connection.subscribe(to: changes) { [unowned self] signal in propertiesChanged(signal) }
        try connection.subscribe(to: PackageKitInterface.finished.rule(sender: daemon.busName)) { [unowned self] signal in
            guard let path = signal.path else { return }
            let exit = (try? PackageKitInterface.finished.read(signal))?.0 ?? 0
            forget(path, Self.stoppingExits.contains(exit) ? .stopped : .ended)
        }
        try connection.subscribe(to: PackageKitInterface.destroy.rule(sender: daemon.busName)) { [unowned self] signal in
            if let path = signal.path { forget(path, .ended) }
        }
        ownerChanged(to: (try? connection.nameOwner(of: daemon.busName)) ?? "")
    }

    /// The connection to the system bus is lost: the transactions leave the count.
    func busLost() {
        ownerChanged(to: "")
    }

    private func ownerChanged(to newOwner: String) {
        guard newOwner != owner else { return }
        if !owner.isEmpty {
            logger.info("PackageKit (\(owner)) left; its transactions leave the count")
            transactions = [:]
            applications = [:]
            work.endWork(of: .packagekit, .left) { _ in true }
        }
        owner = newOwner
        guard let destination = try? BusName(owner) else { return }
        logger.info("following PackageKit's transactions (\(owner))")
        let call = PackageKitInterface.getTransactionList.call(destination: destination,
                                                              path: PackageKitInterface.daemon.path)
        call.autoStart = false
        let asked = owner
        connection.send(call, timeout: .seconds(10)) { [unowned self] result in
            guard asked == owner else { return }
            switch result {
            case .success(var reply):
                guard let paths = try? PackageKitInterface.getTransactionList.readReply(&reply) else {
                    logger.debug("PackageKit's transaction list was of another type; ignored")
                    return
                }
                follow(Set(transactions.keys).union(paths.map(\.rawValue)))
            case .failure(let error):
                logger.debug("PackageKit did not list its transactions: \(error)")
            }
        }
    }

    /// The transactions now are `paths`: new ones are read, gone ones end.
    private func follow(_ paths: Set<String>) {
        for path in transactions.keys where !paths.contains(path) { forget(path, .ended) }
        for path in paths where transactions[path] == nil { read(path) }
    }

    /// Reads all of a transaction's properties, once, when it is first heard of.
    private func read(_ path: String) {
        guard let destination = try? BusName(owner), let objectPath = try? ObjectPath(path) else { return }
        transactions[path] = .some(nil)
        let call = StandardInterface.getAll.call(PackageKitInterface.transactionInterface.rawValue, destination: destination,
                                                 path: objectPath)
        call.autoStart = false
        let asked = owner
        connection.send(call, timeout: .seconds(10)) { [unowned self] result in
            // A transaction that finished or a packagekitd that left meanwhile tells nothing now.
            guard asked == owner, let known = transactions[path] else { return }
            switch result {
            case .success(var reply):
                guard let values = try? StandardInterface.getAll.readReply(&reply) else {
                    logger.debug("PackageKit's transaction \(path) sent properties of another type; ignored")
                    return
                }
                var transaction = known ?? PackageKitTransaction()
                apply(values, to: &transaction, of: path)
                transactions[path] = transaction
                evaluate(path, transaction)
            case .failure(let error):
                // Gone between the list and the question: nothing to show.
                logger.debug("PackageKit's transaction \(path) did not answer: \(error.message)")
                transactions[path] = nil
            }
        }
    }

    private func propertiesChanged(_ signal: Message) {
        guard let path = signal.path, signal.sender == owner, !owner.isEmpty else { return }
        guard let (_, values, _) = try? StandardInterface.readPropertiesChanged(signal) else {
            logger.debug("PackageKit sent a PropertiesChanged of signature \(signal.signature); ignored")
            return
        }
        guard let known = transactions[path] else {
            // Heard before the transaction list: read it whole.
            read(path)
            return
        }
        // Until GetAll answers, changes wait in what it will answer.
        guard var transaction = known else { return }
        apply(values, to: &transaction, of: path)
        transactions[path] = transaction
        evaluate(path, transaction)
    }

    private func apply(_ values: [String: ReceivedVariant], to transaction: inout PackageKitTransaction,
                       of path: String) {
        for (name, value) in values where PackageKitTransaction.propertyNames.contains(name) {
            let typed: PackageKitTransaction.PropertyValue? = switch value.signature {
            case "u": (try? value.decode(UInt32.self)).map { .unsigned($0) }
            case "s": (try? value.decode(String.self)).map { .text($0) }
            default: nil
            }
            if typed.map({ transaction.set(name, to: $0) }) != true {
                logger.debug("PackageKit's transaction \(path) sent \(name) of type \(value.signature); ignored")
            } else if name == "Percentage", transaction.percentage > 101 {
                logger.debug("PackageKit's transaction \(path) sent a percentage of \(transaction.percentage); no percent")
            }
        }
    }

    /// Shows the transaction while it downloads, and ends its activity when it does not.
    private func evaluate(_ path: String, _ transaction: PackageKitTransaction) {
        guard transaction.isNetworkWork else {
            work.endWork(.transaction(path: path), .ended)
            return
        }
        let report = SourceReport(
            label: ActivityLabel(sanitizing: transaction.label), owner: "\(owner) \(path)",
            application: application(of: transaction.sender), user: transaction.user,
            percent: transaction.percent, rate: transaction.rate)
        do throws(ActivityError) {
            try work.report(report, of: .transaction(path: path))
        } catch {
            logger.debug("PackageKit's transaction \(path) shows not: \(error)")
        }
    }

    private func forget(_ path: String, _ way: ActivityOutcome) {
        guard transactions.removeValue(forKey: path) != nil else { return }
        work.endWork(.transaction(path: path), way)
    }

    /// The program behind a transaction's sender on the system bus, as for the service's own callers.
    private func application(of sender: String) -> String? {
        if let known = applications[sender] { return known }
        let found = (try? BusName(sender)).flatMap { try? connection.processID(of: $0) }
            .flatMap(CallerApplication.of(processID:))
        applications[sender] = found
        return found
    }
}
