// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity
import ProgramSupport

/// An adapter of one outside protocol: it follows another program on a bus and reports that program's work as
/// activities of its source, through `SourceWork`. Its rules (what counts, how much) are the domain's, tested in
/// memory; the adapter only translates.
///
/// A new source is its rules in the domain (and its case of `ActivitySource`), its adapter, and one line in
/// `SourceAdapters.all`.
protocol SourceAdapter: AnyObject, SendableMetatype {
    /// The bus the followed program is on.
    static var bus: FollowedBus { get }

    /// Starts following on `connection`, reporting to `work`.
    init(connection: Connection, work: SourceWork, configuration: ServiceConfiguration,
         clock: any TimeSource) throws(DBusError)

    /// A connection left the followed bus (its unique name).
    func connectionLeft(_ name: String)

    /// The connection to the followed bus is lost: the work leaves the count.
    func busLost()
}

extension SourceAdapter {
    func connectionLeft(_ name: String) {}
    func busLost() {}
}

/// Where a followed program is: the session bus, which the service's own connection reaches, or the system bus.
enum FollowedBus {
    case session
    case system
}

/// The sources the service can follow, each with its adapter.
enum SourceAdapters {
    static let all: [ActivitySource: any SourceAdapter.Type] = [
        .packagekit: PackageKitSource.self,
        .launcher: LauncherEntrySource.self,
    ]
}

/// What an adapter may do with the service's activities: report its source's work, and end it; nothing else.
protocol SourceWork: AnyObject {
    var logger: Logger { get }
    /// Who is behind a connection, as the bus tells.
    func credentials(of connection: String) -> ConnectionCredentials?
    /// The work `item` of `source` begins, or changes; throws when it is past its user's or the service's limits.
    @discardableResult
    func report(_ report: SourceReport, of item: String, from source: ActivitySource) throws(ActivityError)
        -> ActivityID
    /// The work `item` is no longer network work, or is gone, `way`.
    func endWork(_ item: String, from source: ActivitySource, _ way: ActivityOutcome)
    /// Every piece of the source's work whose item `matching` accepts ends `way`.
    func endWork(of source: ActivitySource, _ way: ActivityOutcome, matching: (String) -> Bool)
    /// The kernel measured `rate` in `cgroup` (nil: no more); returns whether an activity a caller began there took
    /// it as its rate, instead of a row of its own.
    func measured(rate: UInt64?, inCgroup cgroup: String) -> Bool
}

extension ActivityEndpoint: SourceWork {
    func credentials(of connection: String) -> ConnectionCredentials? {
        callers[connection]?.credentials
    }

    func report(_ report: SourceReport, of item: String, from source: ActivitySource) throws(ActivityError)
        -> ActivityID {
        try coordinator.report(report, of: item, from: source)
    }

    func endWork(_ item: String, from source: ActivitySource, _ way: ActivityOutcome) {
        coordinator.endSourceWork(item, from: source, way)
    }

    func endWork(of source: ActivitySource, _ way: ActivityOutcome, matching: (String) -> Bool) {
        coordinator.endSourceWork(of: source, way, matching: matching)
    }
}
