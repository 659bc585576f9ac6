// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity
import ProgramSupport

/// An adapter of one outside protocol: it follows another program on a bus, or the kernel, and reports that work
/// as activities of its source, through `SourceWork`. Its rules (what counts, how much) are the domain's, tested
/// in memory; the adapter only translates.
///
/// A new source is its rules in the domain (and its case of `ActivitySource`), its adapter, and one line in
/// `SourceAdapters.all`.
protocol SourceAdapter: AnyObject, SendableMetatype {
    /// Where the followed work is.
    static var bus: FollowedBus { get }

    /// Starts following on `connection` (the service's own for the kernel), reporting to `work`; throws why it
    /// cannot.
    init(connection: Connection, work: SourceWork, configuration: ServiceConfiguration,
         clock: any TimeSource) throws(DBusError)

    /// A connection left the followed bus (its unique name).
    func connectionLeft(_ name: String)

    /// The connection to the followed bus is lost: the work leaves the count.
    func busLost()

    /// A descriptor that the loop watches beside the bus, calling `wokeUp` when it is readable.
    var wakeUpDescriptor: Int32? { get }
    func wokeUp()

    /// Whether it wants `endOfTurn` called: only these are, so that a turn costs the others nothing.
    static var readsAtEndOfTurn: Bool { get }
    /// At the end of the loop's turn: returns how long until the adapter wants the next, nil for never.
    func endOfTurn() -> Duration?
}

extension SourceAdapter {
    func connectionLeft(_ name: String) {}
    func busLost() {}
    var wakeUpDescriptor: Int32? { nil }
    func wokeUp() {}
    static var readsAtEndOfTurn: Bool { false }
    func endOfTurn() -> Duration? { nil }
}

/// Where followed work is: a program on the session bus, which the service's own connection reaches, or on the
/// system bus; or the kernel's counts, which the system service alone reads.
enum FollowedBus {
    case session
    case system
    case kernel
}

/// The sources a session service can follow, each with its adapter; the kernel's (`TrafficSource`), which the
/// system service alone reads and which answers the data usage and pausing too, it starts by itself.
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
    /// The work `item` begins, or changes; throws when it is past its user's or the service's limits.
    @discardableResult
    func report(_ report: SourceReport, of item: SourceWorkItem) throws(ActivityError) -> ActivityID
    /// The work `item` is no longer network work, or is gone, `way`.
    func endWork(_ item: SourceWorkItem, _ way: ActivityOutcome)
    /// Every piece of the source's work whose item `matching` accepts ends `way`.
    func endWork(of source: ActivitySource, _ way: ActivityOutcome, matching: (SourceWorkItem) -> Bool)
}
