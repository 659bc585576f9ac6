// SPDX-License-Identifier: Apache-2.0
import NetworkActivity
import ProgramSupport

/// Keeps the service's activities and its history in its state directory, so that the next instance takes them
/// over: reads what the last one saved, begins a fresh journal, and appends each change before the reply to the
/// call that made it leaves.
///
/// The journal grows by a record per change; once the records since it began outweigh the activities it began
/// with (and 64 KiB), a fresh journal is written in its place, so that a change costs O(1) on average and the file
/// stays within about twice the live activities' records. A write that fails ends the keeping: the file is
/// removed, since a later instance would otherwise bring back what ended after it, and the service goes on
/// without (said once, as a warning).
final class StateKeeper {
    /// Reading more would take long for nothing: 65,536 activities (the most the service holds) take under 60 MB
    /// at the longest labels, and the journal is rewritten before it is twice that.
    static let maximumFileBytes = 128 << 20
    private static let minimumJournalBytes = 64 << 10

    private let directory: StateDirectory
    private let logger: Logger
    private let busID: String
    /// The records waiting to be written.
    var journal = StateJournal()
    private var fileBytes = 0
    private var bytesAtBeginning = 0

    /// Opens `directory` and reads what was saved there; nil, having logged why, when it cannot be used.
    static func open(_ directory: String, busID: String, limits: ActivityLimits, historyLimit: Int, logger: Logger)
        -> (keeper: StateKeeper, saved: SavedState)?
    {
        let stateDirectory: StateDirectory
        do {
            stateDirectory = try StateDirectory(path: directory, lockTimeout: .seconds(5))
        } catch {
            logger.warning("keeping no activities across restarts: \(error)")
            return nil
        }
        let saved: SavedState
        switch stateDirectory.read(maximumBytes: maximumFileBytes) {
        case .success(nil):
            saved = SavedState(historyLimit: historyLimit)
        case .success(let bytes?):
            saved = SavedState(reading: bytes, maximumActivities: limits.total, historyLimit: historyLimit)
            if let problem = saved.problem {
                stateDirectory.keepAside()
                logger.warning("""
                    ignored part of \(directory)/\(StateDirectory.fileName): \(problem); \
                    kept it as \(StateDirectory.damagedFileName)
                    """)
            }
        case .failure(let error):
            stateDirectory.keepAside()
            saved = SavedState(historyLimit: historyLimit)
            logger.warning("ignored \(directory)/\(StateDirectory.fileName): \(error); kept it as \(StateDirectory.damagedFileName)")
        }
        return (StateKeeper(directory: stateDirectory, busID: busID, logger: logger), saved)
    }

    private init(directory: StateDirectory, busID: String, logger: Logger) {
        self.directory = directory
        self.busID = busID
        self.logger = logger
    }

    var path: String { directory.path }

    /// Begins a fresh journal with every activity of `tracker` and the entries of `history`. Returns false,
    /// having given up, when it cannot.
    @discardableResult
    func begin(with tracker: ActivityTracker, history: ActivityHistory) -> Bool {
        journal.clear()
        journal.appendFile(of: tracker, history: history, busID: busID)
        do {
            try directory.begin(with: journal.bytes)
        } catch {
            giveUp(error)
            return false
        }
        fileBytes = journal.bytes.count
        bytesAtBeginning = fileBytes
        // A whole file of a crowd is large; the records of one call are small. The buffer starts small again.
        journal = StateJournal()
        return true
    }

    /// Whether the records waiting to be written would make the journal outweigh a fresh one: then `begin` writes
    /// a fresh one instead.
    var isDueForFreshFile: Bool {
        fileBytes + journal.bytes.count > max(2 * bytesAtBeginning, Self.minimumJournalBytes)
    }

    /// Writes the records in `journal`. Returns false, having given up, when it cannot.
    func writeJournal() -> Bool {
        guard !journal.isEmpty else { return true }
        do {
            try directory.append(journal.bytes)
        } catch {
            giveUp(error)
            return false
        }
        fileBytes += journal.bytes.count
        journal.clear()
        return true
    }

    private func giveUp(_ error: StateDirectoryError) {
        directory.remove()
        journal.clear()
        logger.warning("keeping no activities across restarts from now on: \(error)")
    }
}
