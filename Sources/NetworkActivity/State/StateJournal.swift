// SPDX-License-Identifier: Apache-2.0
/// The records a service appends to its state file, encoded and waiting to be written
/// (`StateFileFormat`): a snapshot of every activity when a file is begun, then one record per change.
///
/// The buffer keeps its capacity when cleared, so that the record of a Begin or an End costs no allocation.
public struct StateJournal {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public var isEmpty: Bool { bytes.isEmpty }

    /// Forgets what was written out.
    public mutating func clear() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// A whole file: who writes it, and every live activity of `tracker`, in no particular order (a reader orders
    /// them).
    public mutating func appendFile(
        of tracker: ActivityTracker, history: ActivityHistory = ActivityHistory(limitPerUser: 0), busID: String
    ) {
        let entries = history.all
        bytes.reserveCapacity(bytes.count + 64 * (tracker.count + 1) + 128 * entries.count)
        bytes += StateFileFormat.magic
        append(StateFileFormat.version)
        record(.instance) { journal in
            journal.append(busID)
            journal.append(tracker.highestID)
            if let key = tracker.idCipher.key { for part in key { journal.append(part) } }
        }
        for entry in entries { appendFinished(entry) }
        tracker.forEachActivity { activity, extras in appendActivity(activity, extras) }
    }

    /// An activity as it is now, begun or changed.
    public mutating func appendActivity(_ activity: TrackedActivity, _ extras: ActivityExtras) {
        record(.activity) { journal in
            journal.append(activity.id.rawValue)
            journal.append(activity.owner)
            journal.append(activity.label.text)
            journal.append(activity.startedAt)
            let progress = extras.progress
            var flags: StateFileFormat.Flags = []
            if activity.expiry != nil { flags.insert(.timed) }
            if progress.percent != nil { flags.insert(.percent) }
            if progress.done != nil { flags.insert(.done) }
            if progress.total != nil { flags.insert(.total) }
            if progress.rate != nil { flags.insert(.rate) }
            if extras.cancelReceiver != nil { flags.insert(.cancelReceiver) }
            if extras.isCancelRequested { flags.insert(.cancelRequested) }
            journal.bytes.append(flags.rawValue)
            if let expiry = activity.expiry {
                journal.append(expiry.wallClockDeadline)
                journal.append(expiry.creatorUser)
            }
            if let percent = progress.percent { journal.append(percent) }
            if let done = progress.done { journal.append(done) }
            if let total = progress.total { journal.append(total) }
            if let rate = progress.rate { journal.append(rate) }
            if let receiver = extras.cancelReceiver { journal.append(receiver) }
        }
    }

    public mutating func appendEnded(_ id: ActivityID) {
        record(.ended) { $0.append(id.rawValue) }
    }

    /// An entry of the history.
    public mutating func appendFinished(_ entry: FinishedActivity) {
        record(.finished) { journal in
            journal.append(entry.id.rawValue)
            journal.append(entry.owner, cutTo: StateFileFormat.maximumNameBytes)
            journal.append(entry.label.text)
            journal.append(entry.startedAt)
            journal.append(entry.endedAt)
            journal.bytes.append(UInt8(StateFileFormat.outcomes.firstIndex(of: entry.outcome)!))
            let progress = entry.progress
            var flags: StateFileFormat.FinishedFlags = []
            if entry.user != nil { flags.insert(.user) }
            if entry.processID != nil { flags.insert(.process) }
            if entry.application != nil { flags.insert(.application) }
            if entry.source != nil { flags.insert(.source) }
            if entry.deadline != nil { flags.insert(.deadline) }
            if progress.percent != nil { flags.insert(.percent) }
            if progress.done != nil { flags.insert(.done) }
            if progress.total != nil { flags.insert(.total) }
            if progress.rate != nil { flags.insert(.rate) }
            if entry.wasCancellable { flags.insert(.cancellable) }
            journal.append(flags.rawValue)
            if let user = entry.user { journal.append(user) }
            if let processID = entry.processID { journal.append(processID) }
            if let application = entry.application {
                journal.append(application, cutTo: StateFileFormat.maximumNameBytes)
            }
            if let source = entry.source { journal.append(source.rawValue) }
            if let deadline = entry.deadline { journal.append(deadline) }
            if let percent = progress.percent { journal.append(percent) }
            if let done = progress.done { journal.append(done) }
            if let total = progress.total { journal.append(total) }
            if let rate = progress.rate { journal.append(rate) }
        }
    }

    /// Frames a payload: its length and checksum go before it, once it is written.
    private mutating func record(_ kind: StateFileFormat.Kind, _ writePayload: (inout StateJournal) -> Void) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: StateFileFormat.recordHeaderSize))
        bytes.append(kind.rawValue)
        writePayload(&self)
        let payloadStart = start + StateFileFormat.recordHeaderSize
        let length = UInt32(bytes.count - payloadStart)
        let checksum = CRC32.checksum(bytes[payloadStart...])
        for offset in 0..<4 {
            bytes[start + offset] = UInt8(truncatingIfNeeded: length >> (8 * offset))
            bytes[start + 4 + offset] = UInt8(truncatingIfNeeded: checksum >> (8 * offset))
        }
    }

    private mutating func append<Integer: FixedWidthInteger & UnsignedInteger>(_ value: Integer) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Names and labels are at most 256 bytes, by the bus's rules and `ActivityLabel`'s.
    private mutating func append(_ text: String) {
        append(UInt16(text.utf8.count))
        bytes.append(contentsOf: text.utf8)
    }

    /// A text that no rule bounds, cut to the whole characters that fit in `maximumBytes`.
    private mutating func append(_ text: String, cutTo maximumBytes: Int) {
        var cut = Substring(text)
        while cut.utf8.count > maximumBytes { cut.removeLast() }
        append(UInt16(cut.utf8.count))
        bytes.append(contentsOf: cut.utf8)
    }
}
