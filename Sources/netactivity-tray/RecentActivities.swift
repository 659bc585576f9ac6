// SPDX-License-Identifier: Apache-2.0
import DBusKit
import DesktopIndicator
import NetworkActivityClient
import NetworkActivityInterface
import ProgramSupport

/// The last few activities that finished, for the tray's menu: read with `GetHistory` when the service starts
/// and at each `HistoryChanged`, never by polling; forgotten with `ClearHistory`.
final class RecentActivities {
    private unowned let connection: Connection
    private let logger: Logger
    private let onChange: () -> Void
    /// Newest first.
    private(set) var entries: [HistoryEntry] = []
    private var reads = ReadsInTurn()
    private var isServiceRunning = false

    init(connection: Connection, logger: Logger, onChange: @escaping () -> Void) throws(DBusError) {
        self.connection = connection
        self.logger = logger
        self.onChange = onChange
        try connection.subscribe(to: ServiceMembers.historyChanged.rule(sender: ServiceNames.busName,
                                                                        path: ServiceNames.objectPath)) {
            [unowned self] _ in read()
        }
    }

    /// The service started (again), or said its history changed: reads the newest entries.
    func read() {
        guard reads.start() else { return }
        connection.send(ServiceCall.history(limit: UInt32(TrayMenu.listedRecent)).withoutAutoStart()) {
            [unowned self] result in
            switch result {
            case .success(let read):
                if read != entries {
                    entries = read
                    onChange()
                }
            case .failure(let error):
                logger.debug("could not read the history: \(error)")
            }
            if reads.finished() { read() }
        }
    }

    /// Whether the service runs now: it is read when it starts; when it stops, what it kept is not shown until
    /// it answers again.
    func serviceRuns(_ runs: Bool) {
        guard runs != isServiceRunning else { return }
        isServiceRunning = runs
        if runs {
            read()
        } else if !entries.isEmpty {
            entries = []
            onChange()
        }
    }

    /// Forgets the user's entries; the service's `HistoryChanged` then empties the rows.
    func clear() {
        connection.send(ServiceMembers.clearHistory.serviceCall().withoutAutoStart()) { [logger] result in
            switch result {
            case .success(let cleared): logger.notice("cleared \(cleared) finished activities from the menu")
            case .failure(let error): logger.warning("could not clear the finished activities: \(error)")
            }
        }
    }
}
