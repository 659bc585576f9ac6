// SPDX-License-Identifier: Apache-2.0
import NetworkActivityInterface
import ProgramSupport

/// What should be alive in the service, kept from the stress clients' lines; each activity is known by its label,
/// which is unique in a run.
///
/// A client killed in the middle of a call leaves an activity that may or may not exist: one it was beginning with
/// a timeout (which outlives it), one it was ending, or the timed ones it was cancelling. Those are kept as
/// uncertain: listed or not, neither is a mismatch. So does a service killed in the middle of a call, or not there
/// when it was made (`unanswered`): the call may have happened or not, whatever it was, a Begin included.
struct StressLedger {
    struct Expected {
        var owner: String
        /// Unknown for an activity whose reply was never read.
        var id: UInt32?
        var isTimed: Bool
        /// When a timed activity falls due: between the call's sending and its reply, plus its seconds (µs since
        /// the epoch); unknown for an uncertain one.
        var due: ClosedRange<UInt64>?
        var isCertain: Bool
        /// The percent it was last given; nil when none, or when a client was killed while giving one.
        var percent: UInt32?
        var isPercentCertain = true
    }

    enum Call {
        case begin(label: String)
        case timed(seconds: UInt64, label: String)
        case end(UInt32)
        case cancel
        /// `SetProgress` or `SetCancellable`: changes no count.
        case progress(UInt32, UInt32)
        case cancellable
    }

    struct Client {
        var name = ""
        var pending: Call?
        var calls = 0
        /// It said `bye` and is exiting by itself.
        var isLeaving = false
    }

    private(set) var expected: [String: Expected] = [:]
    private var labelOfID: [UInt32: String] = [:]
    private(set) var mismatches: [String] = []
    /// Bound activities that ended because their client exited or was killed.
    private(set) var reclaimed = 0
    /// The latest moment an activity in the ledger may fall due (µs since the epoch).
    private(set) var latestDue: UInt64 = 0

    mutating func mismatch(_ text: String) {
        mismatches.append(text)
    }

    /// Takes one line of a client's.
    mutating func record(_ line: Substring, from client: inout Client) {
        let fields = line.split(separator: " ", maxSplits: 3)
        guard let kind = fields.first else { return }
        let rest = fields.dropFirst().map(String.init)
        switch (kind, rest.count) {
        case ("hello", 1): client.name = rest[0]
        case ("calling", _): client.pending = Self.call(rest)
        case ("begun", 3): begun(UInt32(rest[0]), sent: UInt64(rest[1]), replied: UInt64(rest[2]), by: &client)
        case ("ended", 1), ("expired", 1):
            if let id = UInt32(rest[0]), let label = labelOfID.removeValue(forKey: id) { expected[label] = nil }
            else { mismatch("\(client.name) ended \(rest[0]), which the ledger does not hold") }
            client.pending = nil
        case ("progressed", 2):
            if let id = UInt32(rest[0]), let label = labelOfID[id] { expected[label]?.percent = UInt32(rest[1]) }
            client.pending = nil
        case ("refused", 1):
            client.pending = nil
        case ("unanswered", 0):
            unanswered(&client)
        case ("cancelled", 1):
            expected = expected.filter { $0.value.owner != client.name }
            client.pending = nil
        case ("idle", 1): client.calls = Int(rest[0]) ?? 0
        case ("bye", 1):
            client.calls = Int(rest[0]) ?? 0
            client.isLeaving = true
        case ("mismatch", _), ("failed", _): mismatch("\(client.name): \(line)")
        default: mismatch("\(client.name) wrote a line the ledger cannot read: \(line)")
        }
    }

    private static func call(_ fields: [String]) -> Call? {
        switch (fields.first, fields.count) {
        case ("begin", 2): .begin(label: fields[1])
        case ("timed", 3): UInt64(fields[1]).map { .timed(seconds: $0, label: fields[2]) }
        case ("end", 2): UInt32(fields[1]).map(Call.end)
        case ("cancel", 1): .cancel
        case ("progress", 3): UInt32(fields[1]).flatMap { id in UInt32(fields[2]).map { .progress(id, $0) } }
        case ("cancellable", 2): .cancellable
        default: nil
        }
    }

    private mutating func begun(_ id: UInt32?, sent: UInt64?, replied: UInt64?, by client: inout Client) {
        defer { client.pending = nil }
        guard let id, let sent, let replied else { return mismatch("\(client.name) wrote a bad begun line") }
        switch client.pending {
        case .begin(let label):
            add(label, Expected(owner: client.name, id: id, isTimed: false, due: nil, isCertain: true))
        case .timed(let seconds, let label):
            let due = sent + seconds * 1_000_000...replied + seconds * 1_000_000
            latestDue = max(latestDue, due.upperBound)
            add(label, Expected(owner: client.name, id: id, isTimed: true, due: due, isCertain: true))
        default:
            mismatch("\(client.name) began \(id) without calling Begin")
        }
    }

    private mutating func add(_ label: String, _ activity: Expected) {
        if expected[label] != nil { mismatch("label \(label) was used twice") }
        expected[label] = activity
        if let id = activity.id { labelOfID[id] = label }
    }

    /// The client's call was not answered: what it did is uncertain, and the client lives on.
    private mutating func unanswered(_ client: inout Client) {
        if case .begin(let label) = client.pending {
            add(label, Expected(owner: client.name, id: nil, isTimed: false, due: nil, isCertain: false))
        } else {
            callUncertain(client, at: SystemClock.wallClockMicroseconds(), maxTimeout: StressCommand.maxTimeout)
        }
        client.pending = nil
    }

    /// The client is gone (exited or killed at `now`, µs since the epoch): its bound activities end, its timed ones
    /// live on; what its unfinished call did is uncertain.
    mutating func clientGone(_ client: Client, at now: UInt64, maxTimeout: UInt64) {
        callUncertain(client, at: now, maxTimeout: maxTimeout)
        for (label, activity) in expected where activity.owner == client.name && !activity.isTimed {
            expected[label] = nil
            if let id = activity.id { labelOfID[id] = nil }
            reclaimed += 1
        }
    }

    /// What the client's unfinished call did is uncertain.
    private mutating func callUncertain(_ client: Client, at now: UInt64, maxTimeout: UInt64) {
        switch client.pending {
        case .timed(_, let label):
            latestDue = max(latestDue, now + maxTimeout * 1_000_000)
            add(label, Expected(owner: client.name, id: nil, isTimed: true, due: nil, isCertain: false))
        case .end(let id):
            if let label = labelOfID[id] { expected[label]?.isCertain = false }
        case .cancel:
            for (label, activity) in expected where activity.owner == client.name { expected[label]?.isCertain = false }
        case .progress(let id, _):
            if let label = labelOfID[id] { expected[label]?.isPercentCertain = false }
        case .begin, .cancellable, nil:
            break
        }
    }

    /// Once every client has gone: each activity left (timed ones) has the percent last given, and none is
    /// cancellable, since the clients that would have been asked have left the bus.
    mutating func compare(withDetails details: [ActivityDetails]) {
        for record in details {
            guard let activity = expected[record.label] else { continue }
            if record.isCancellable { mismatch("\(record.id) is cancellable, but every receiver has gone") }
            if activity.isPercentCertain, record.percent != activity.percent {
                mismatch("\(record.id) has percent \(record.percent.map(String.init) ?? "none"), the ledger "
                         + "\(activity.percent.map(String.init) ?? "none")")
            }
        }
    }

    /// Compares the service's list, read from `listedFrom` to `listedBy` (µs since the epoch), with the ledger,
    /// and forgets the timed activities that have ended by their deadline.
    mutating func compare(with listed: [ActivityRecord], listedFrom: UInt64, listedBy: UInt64) {
        var seen = Set<String>()
        for record in listed {
            guard let activity = expected[record.label] else {
                mismatch("the service lists \(record.id) \"\(record.label)\" of \(record.owner), not in the ledger")
                continue
            }
            seen.insert(record.label)
            if activity.owner != record.owner || activity.id.map({ $0 != record.id }) ?? false {
                mismatch("the service lists \(record.id) \"\(record.label)\" of \(record.owner); the ledger has "
                         + "\(activity.id.map(String.init) ?? "?") of \(activity.owner)")
            }
            if activity.isTimed != (record.deadline != nil) {
                mismatch("\(record.id) \"\(record.label)\" is listed with deadline \(record.deadline ?? 0)")
            }
            if let due = activity.due, let deadline = record.deadline {
                // The service's times are in whole microseconds of its own clock reads.
                if deadline + 1000 < due.lowerBound || deadline > due.upperBound + 1000 {
                    mismatch("\(record.id) is due at \(deadline), the ledger says \(due)")
                }
                if due.upperBound + StressClientCommand.lateTolerance < listedFrom {
                    mismatch("\(record.id) is still listed \(listedFrom - due.upperBound) µs after its deadline")
                }
            }
        }
        for (label, activity) in expected where !seen.contains(label) {
            if activity.isTimed, activity.due.map({ $0.lowerBound <= listedBy + 1000 }) ?? true {
                expected[label] = nil
                if let id = activity.id { labelOfID[id] = nil }
                continue
            }
            if activity.isCertain {
                mismatch("\(activity.id.map(String.init) ?? "?") \"\(label)\" of \(activity.owner) is not listed")
            }
        }
    }
}
