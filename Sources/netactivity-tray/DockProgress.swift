// SPDX-License-Identifier: Apache-2.0
import DBusKit
import DesktopIndicator
import NetworkActivityClient
import NetworkActivityInterface
import ProgramSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Shows each app's progress on its icon in docks and task bars (`LauncherProgress` decides what and when), from
/// the tray's loop: every session with a dock or a task bar runs the tray (its user unit starts with the graphical
/// session), and the tray already follows the activities and names apps by their desktop files.
///
/// Docks keep what a sender that left said of its apps (Plasma's task manager clears only the last), so it hides
/// every app it showed when it stops, and keeps their ids in `stateFile` meanwhile: an instance that starts after a
/// crash hides what the last one left shown.
final class DockProgress {
    /// Where libunity sends an app's updates from; docks read only the arguments.
    static let path: ObjectPath = "/com/canonical/unity/launcherentry/netactivity"

    private let connection: Connection
    private let clock: any TimeSource
    private let logger: Logger
    private let stateFile: String?
    private var progress = LauncherProgress()

    init(connection: Connection, clock: any TimeSource, logger: Logger, stateFile: String?) throws(DBusError) {
        self.connection = connection
        self.clock = clock
        self.logger = logger
        self.stateFile = stateFile
        let ownName = connection.uniqueName
        try connection.subscribe(to: LauncherEntryInterface.update.rule()) { [unowned self] signal in
            guard let sender = signal.sender, sender != ownName else { return }
            anotherSenderSent(signal, sender: sender)
        }
        hideWhatTheLastInstanceShowed()
    }

    /// The activities now.
    func follow(_ activities: [ActivityStatus]) {
        progress.follow(activities) { DesktopApplications.installed.application($0) != nil }
    }

    /// Sends what is due; returns how long until the next update falls due, nil when none waits.
    func sendDue() -> Duration? {
        let now = clock.monotonicNow()
        let (updates, next) = progress.due(at: now)
        // Kept before it is sent: a crash between the two must not leave a dock showing what no file names.
        if !updates.isEmpty { saveShown() }
        for update in updates { send(update) }
        return next.map { now.duration(to: $0) }
    }

    /// The tray stops: every app it showed is hidden.
    func stop() {
        for update in progress.hideAll() { send(update) }
        connection.flush()
        if let stateFile { unlink(stateFile) }
    }

    private func anotherSenderSent(_ signal: Message, sender: String) {
        guard signal.hasSignature("sa{sv}"), let (uri, properties) = try? LauncherEntryInterface.update.read(signal),
              (try? properties["progress-visible"]?.decode(Bool.self)) == true,
              let application = LauncherEntryInterface.desktopID(ofURI: uri)
        else { return }
        guard !progress.isForeign(application) else { return }
        logger.info("\(sender) shows its own progress for \(application); leaving it to it")
        progress.anotherSenderShows(application)
    }

    private func send(_ update: LauncherProgress.Update) {
        let signal = Message.signal(path: Self.path, interface: LauncherEntryInterface.interface,
                                    member: LauncherEntryInterface.sentUpdate.name)
        var properties = ["progress-visible": Variant(update.isVisible)]
        if let value = update.progress { properties["progress"] = Variant(value) }
        LauncherEntryInterface.sentUpdate.write(LauncherEntryInterface.appURI(ofDesktopID: update.application),
                                                properties, to: signal)
        connection.send(signal)
        logger.debug("dock progress of \(update.application): \(update.progress.map { "\($0)" } ?? "hidden")")
    }

    /// The apps shown now, one id a line, for the instance after a crash.
    private func saveShown() {
        guard let stateFile else { return }
        let text = progress.shown.keys.sorted().map { $0 + "\n" }.joined()
        guard !text.isEmpty else {
            unlink(stateFile)
            return
        }
        do {
            close(try AtomicFile.replace(stateFile, with: Array(text.utf8)))
        } catch {
            logger.debug("could not keep the apps shown in \(stateFile): \(error)")
        }
    }

    private func hideWhatTheLastInstanceShowed() {
        guard let stateFile, let text = readSmallTextFile(atPath: stateFile) else { return }
        let applications = text.split(separator: "\n").map(String.init).filter(LauncherProgress.isDesktopID)
        for application in applications { send(LauncherProgress.Update(application: application, progress: nil)) }
        if !applications.isEmpty {
            logger.info("hid the dock progress of \(applications.count) apps that the last run left shown")
        }
        unlink(stateFile)
    }
}
