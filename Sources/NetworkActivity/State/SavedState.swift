// SPDX-License-Identifier: Apache-2.0
/// What a state file says (`StateFileFormat`): the activities live when it was last written, who wrote it, and
/// the ids handed out.
///
/// Reading never fails: a file that is empty, not a state file, from a newer version, or damaged gives what could
/// be read before the damage (nothing, when the damage is in the header), and `problem` says what was ignored. A
/// record cut short by a crash while it was written is such damage, and is dropped, never misread.
public struct SavedState: Sendable, Equatable {
    /// The id of the bus that the service which wrote it was on (`org.freedesktop.DBus.GetId`); nil when
    /// nothing could be read.
    public private(set) var busID: String?
    /// How many ids were handed out, whether or not their activities are still live.
    public private(set) var highestID: UInt32 = 0
    /// How its ids were made of counts (`ActivityIDCipher`); nil for a file whose ids are the counts.
    public private(set) var idCipher: ActivityIDCipher?
    /// In the order they began.
    public private(set) var activities: [SavedActivity] = []
    /// The entries of the history, as many as the limit it was read with keeps.
    public private(set) var history: ActivityHistory
    /// What was ignored, for a warning; nil when the whole file was read.
    public private(set) var problem: String?

    /// No state: there was no file.
    public init(historyLimit: Int = 0) {
        history = ActivityHistory(limitPerUser: historyLimit)
    }

    /// Reads a state file's bytes. Beyond `maximumActivities` live at once, further activities are ignored; of
    /// the history, each user's newest `historyLimit` entries are kept.
    public init(reading bytes: [UInt8], maximumActivities: Int, historyLimit: Int = 0) {
        history = ActivityHistory(limitPerUser: historyLimit)
        var live: [ActivityID: SavedActivity] = [:]
        defer {
            let cipher = idCipher ?? .sequential
            activities = cipher.inOrderBegun(live.values, id: \.id)
        }
        guard !bytes.isEmpty else {
            problem = "the file is empty"
            return
        }
        guard bytes.count >= StateFileFormat.headerSize, bytes.starts(with: StateFileFormat.magic) else {
            problem = "the file is not a netactivity state file"
            return
        }
        var header = PayloadReader(bytes[StateFileFormat.magic.count..<StateFileFormat.headerSize])
        let version = header.integer(UInt32.self) ?? 0
        guard version == StateFileFormat.version else {
            problem = version > StateFileFormat.version
                ? "the file is of format \(version), from a newer netactivityd; this one reads format \(StateFileFormat.version)"
                : "the file is of format \(version), which no netactivityd writes"
            return
        }
        var position = StateFileFormat.headerSize
        var overflow = 0
        while position < bytes.count {
            let record: Record
            switch Record.read(bytes, at: position) {
            case .failure(let damage):
                problem = "\(damage) at byte \(position); ignored it and the \(bytes.count - position) bytes from there"
                return
            case .success(let read):
                record = read
            }
            switch record.content {
            case .instance(let busID, let highestID, let key) where self.busID == nil:
                self.busID = busID
                self.highestID = highestID
                idCipher = key.map { ActivityIDCipher(key: $0) }
            case .instance:
                problem = "a second header at byte \(position); ignored it and the \(bytes.count - position) bytes from there"
                return
            case _ where busID == nil:
                problem = "no header before the first record; ignored the \(bytes.count - position) bytes from byte \(position)"
                return
            case .activity(let activity):
                highestID = max(highestID, (idCipher ?? .sequential).count(ofID: activity.id.rawValue))
                if live[activity.id] != nil || live.count < maximumActivities {
                    live[activity.id] = activity
                } else {
                    overflow += 1
                }
            case .ended(let id):
                live[id] = nil
            case .finished(let entry):
                history.record(entry)
            }
            position = record.end
        }
        if overflow > 0 { problem = "\(overflow) activities beyond the limit of \(maximumActivities)" }
    }
}

/// One record of a state file, checked and decoded.
private struct Record {
    enum Content {
        case instance(busID: String, highestID: UInt32, key: [UInt64]?)
        case activity(SavedActivity)
        case ended(ActivityID)
        case finished(FinishedActivity)
    }

    let content: Content
    /// Where the next record starts.
    let end: Int

    struct Damage: Error, CustomStringConvertible {
        let description: String
    }

    static func read(_ bytes: [UInt8], at start: Int) -> Result<Record, Damage> {
        var frame = PayloadReader(bytes[start...])
        guard let length = frame.integer(UInt32.self), let checksum = frame.integer(UInt32.self) else {
            return .failure(Damage(description: "a record cut short"))
        }
        guard length >= 1, length <= StateFileFormat.maximumPayload else {
            return .failure(Damage(description: "a record length of \(length)"))
        }
        let payloadStart = start + StateFileFormat.recordHeaderSize
        guard bytes.count - payloadStart >= Int(length) else { return .failure(Damage(description: "a record cut short")) }
        let payload = bytes[payloadStart..<payloadStart + Int(length)]
        guard CRC32.checksum(payload) == checksum else { return .failure(Damage(description: "a wrong checksum")) }
        guard let content = decode(payload) else { return .failure(Damage(description: "a record that makes no sense")) }
        return .success(Record(content: content, end: payloadStart + Int(length)))
    }

    private static func decode(_ payload: ArraySlice<UInt8>) -> Content? {
        var reader = PayloadReader(payload)
        let content: Content?
        switch reader.integer(UInt8.self).flatMap(StateFileFormat.Kind.init(rawValue:)) {
        case .instance:
            guard let busID = reader.string(), let highestID = reader.integer(UInt32.self) else { return nil }
            var key: [UInt64]?
            if !reader.isAtEnd {
                key = (0..<4).compactMap { _ in reader.integer(UInt64.self) }
                guard key?.count == 4 else { return nil }
            }
            content = .instance(busID: busID, highestID: highestID, key: key)
        case .activity:
            content = activity(&reader).map(Content.activity)
        case .ended:
            content = reader.integer(UInt32.self).flatMap { $0 == 0 ? nil : .ended(ActivityID(rawValue: $0)) }
        case .finished:
            content = finished(&reader).map(Content.finished)
        case nil:
            return nil
        }
        return reader.isAtEnd ? content : nil
    }

    /// An activity record's fields, held to the rules the service enforces when it takes them from a caller.
    private static func activity(_ reader: inout PayloadReader) -> SavedActivity? {
        guard let id = reader.integer(UInt32.self), id != 0,
              let owner = reader.string(), isUniqueName(owner),
              let labelText = reader.string(), let label = try? ActivityLabel(labelText),
              let startedAt = reader.integer(UInt64.self),
              let flagBits = reader.integer(UInt8.self)
        else { return nil }
        let flags = StateFileFormat.Flags(rawValue: flagBits)
        guard StateFileFormat.Flags.all.isSuperset(of: flags) else { return nil }
        var lease: SavedActivity.Lease?
        if flags.contains(.timed) {
            guard let deadline = reader.integer(UInt64.self), let user = reader.integer(UInt32.self) else { return nil }
            lease = SavedActivity.Lease(wallClockDeadline: deadline, creatorUser: user)
        }
        guard let progress = progress(&reader, percent: flags.contains(.percent), done: flags.contains(.done),
                                      total: flags.contains(.total), rate: flags.contains(.rate), totalAlone: false)
        else { return nil }
        var receiver: String?
        if flags.contains(.cancelReceiver) {
            guard let value = reader.string(), isUniqueName(value) else { return nil }
            receiver = value
        }
        return SavedActivity(
            id: ActivityID(rawValue: id), owner: owner, label: label, startedAt: startedAt, lease: lease,
            progress: progress, cancelReceiver: receiver, isCancelRequested: flags.contains(.cancelRequested))
    }

    /// A finished record's fields, held to the rules the service enforces when it takes them.
    private static func finished(_ reader: inout PayloadReader) -> FinishedActivity? {
        guard let id = reader.integer(UInt32.self), id != 0,
              let owner = reader.string(), owner.utf8.count <= StateFileFormat.maximumNameBytes,
              let labelText = reader.string(), let label = try? ActivityLabel(labelText),
              let startedAt = reader.integer(UInt64.self),
              let endedAt = reader.integer(UInt64.self),
              let outcomeIndex = reader.integer(UInt8.self), Int(outcomeIndex) < StateFileFormat.outcomes.count,
              let flagBits = reader.integer(UInt16.self)
        else { return nil }
        let flags = StateFileFormat.FinishedFlags(rawValue: flagBits)
        guard StateFileFormat.FinishedFlags.all.isSuperset(of: flags) else { return nil }
        var entry = FinishedActivity(id: ActivityID(rawValue: id), label: label, owner: owner, startedAt: startedAt,
                                     endedAt: endedAt, outcome: StateFileFormat.outcomes[Int(outcomeIndex)],
                                     wasCancellable: flags.contains(.cancellable))
        if flags.contains(.user) {
            guard let user = reader.integer(UInt32.self) else { return nil }
            entry.user = user
        }
        if flags.contains(.process) {
            guard let processID = reader.integer(UInt32.self) else { return nil }
            entry.processID = processID
        }
        if flags.contains(.application) {
            guard let application = reader.string(), application.utf8.count <= StateFileFormat.maximumNameBytes
            else { return nil }
            entry.application = application
        }
        if flags.contains(.source) {
            guard let source = reader.string().flatMap(ActivitySource.init(rawValue:)) else { return nil }
            entry.source = source
        }
        if flags.contains(.deadline) {
            guard let deadline = reader.integer(UInt64.self) else { return nil }
            entry.deadline = deadline
        }
        // A source's work may have a total and no amount done.
        guard let progress = progress(&reader, percent: flags.contains(.percent), done: flags.contains(.done),
                                      total: flags.contains(.total), rate: flags.contains(.rate), totalAlone: true)
        else { return nil }
        entry.progress = progress
        return entry
    }

    /// The progress fields that a record's flags say it has, in their order, held to the rules a caller's report
    /// is: a percent of at most 100, a total above 0 and not below the amount done (and only with an amount done,
    /// unless `totalAlone`). Nil when they break them.
    private static func progress(_ reader: inout PayloadReader, percent hasPercent: Bool, done hasDone: Bool,
                                 total hasTotal: Bool, rate hasRate: Bool, totalAlone: Bool) -> ActivityProgress? {
        var percent: UInt32?, done: UInt64?, total: UInt64?, rate: UInt64?
        if hasPercent {
            guard let value = reader.integer(UInt32.self), value <= 100 else { return nil }
            percent = value
        }
        if hasDone {
            guard let value = reader.integer(UInt64.self) else { return nil }
            done = value
        }
        if hasTotal {
            guard let value = reader.integer(UInt64.self), value > 0, done.map({ $0 <= value }) ?? totalAlone else {
                return nil
            }
            total = value
        }
        if hasRate {
            guard let value = reader.integer(UInt64.self) else { return nil }
            rate = value
        }
        return ActivityProgress(percent: percent, done: done, total: total, rate: rate)
    }

    /// Shaped like a bus's unique name (`:1.42`): what a caller is known by. The bus's full rules are DBusKit's,
    /// which the domain does not import; a name that passes here and not there is never on the bus, and so never
    /// restored.
    private static func isUniqueName(_ name: String) -> Bool {
        name.utf8.count >= 2 && name.utf8.count <= 255 && name.utf8.first == UInt8(ascii: ":")
    }
}
