// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity
import NetworkActivityInterface
import ProgramSupport

/// Follows `com.canonical.Unity.LauncherEntry.Update` on the session bus and reports the progress of the apps
/// followed as activities of the `launcher` source (`LauncherEntries` has the rules). It never follows its own
/// connection's signals, and costs nothing while nobody sends them: the bus delivers only what the match rule asks.
final class LauncherEntrySource: SourceAdapter {
    static let bus = FollowedBus.session

    private var entries: LauncherEntries
    private unowned let work: SourceWork
    private let logger: Logger
    private let clock: any TimeSource
    private let ownName: String
    private let applications: DesktopApplications

    init(connection: Connection, work: SourceWork, configuration: ServiceConfiguration,
         clock: any TimeSource) throws(DBusError) {
        entries = LauncherEntries(followedApplications: configuration.launcherApplications)
        self.work = work
        logger = work.logger
        self.clock = clock
        ownName = connection.uniqueName
        applications = .installed
        try connection.subscribe(to: LauncherEntryInterface.update.rule()) { [unowned self] signal in received(signal) }
    }

    private func received(_ signal: Message) {
        guard let sender = signal.sender, sender != ownName else { return }
        guard signal.hasSignature("sa{sv}"), let (uri, values) = try? LauncherEntryInterface.update.read(signal) else {
            logger.debug("\(sender) sent a launcher entry update of signature \(signal.signature); ignored")
            return
        }
        let properties = values.mapValues { value -> LauncherEntries.Value in
            switch value.signature {
            case "d": (try? value.decode(Double.self)).map(LauncherEntries.Value.number) ?? .other(signature: "d")
            case "b": (try? value.decode(Bool.self)).map(LauncherEntries.Value.flag) ?? .other(signature: "b")
            default: .other(signature: value.signature)
            }
        }
        switch entries.update(from: sender, application: LauncherEntryInterface.desktopID(ofURI: uri), properties: properties, at: clock.monotonicNow()) {
        case .shows(let item, let application, let percent):
            let credentials = work.credentials(of: sender)
            let report = SourceReport(
                label: ActivityLabel(sanitizing: applications.application(application)?.name ?? application),
                owner: sender, application: application, user: credentials?.user,
                processID: credentials?.processID, percent: percent)
            do throws(ActivityError) {
                try work.report(report, of: item)
            } catch {
                logger.debug("\(sender)'s progress for \(application) shows not: \(error)")
            }
        case .hidden(let item):
            work.endWork(item, .ended)
        case .ignored(let reason):
            if let reason { logger.debug("\(reason); ignored") }
        }
    }

    /// A connection left the bus: the progress it showed ends.
    func connectionLeft(_ sender: String) {
        entries.senderLeft(sender)
        work.endWork(of: .launcher, .left) { $0.isLauncherEntry(of: sender) }
    }
}
