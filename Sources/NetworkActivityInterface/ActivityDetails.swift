// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// One entry of `GetActivities`, `ActivitiesChanged` and `GetHistory`, `(ua{sv})`: an activity's id and everything
/// the service knows of it, in a dictionary that later versions may extend. Readers ignore keys they do not know.
public struct ActivityDetails: DBusCodable, Hashable, Sendable {
    public static var dbusSignature: String { "(ua{sv})" }

    /// The keys of the record, as the interface XML names them. Adding one: its key here, its property, its line in
    /// `forEachField` and in `init(from:)`; the bus, the JSON and the client's `ActivityStatus` follow.
    public enum Key {
        public static let label = "label"
        public static let owner = "owner"
        public static let started = "started"
        public static let deadline = "deadline"
        public static let user = "user"
        public static let process = "process"
        public static let app = "app"
        public static let system = "system"
        public static let cancellable = "cancellable"
        public static let cancelRequested = "cancel-requested"
        public static let percent = "percent"
        public static let done = "done"
        public static let total = "total"
        public static let rate = "rate"
        public static let received = "received"
        public static let sent = "sent"
        public static let source = "source"
        public static let paused = "paused"
        public static let limitDown = "limit-down"
        public static let limitUp = "limit-up"
        public static let limitMetered = "limit-metered"
        public static let limitOverPlan = "limit-over-plan"
        public static let ended = "ended"
        public static let outcome = "outcome"
    }

    /// A value of the record, with its D-Bus type.
    public enum FieldValue: Sendable, Equatable {
        case string(String)
        case uint32(UInt32)
        case uint64(UInt64)
        case bool(Bool)

        /// Appends `{key: value}` to an `a{sv}` being written (`GetActivities`' and `GetUsage`'s records).
        public func append(as key: String, to entries: inout MessageWriter) {
            entries.appendDictEntry { entry in
                entry.append(key)
                switch self {
                case .string(let text): entry.appendVariant(signature: "s") { $0.append(text) }
                case .uint32(let number): entry.appendVariant(signature: "u") { $0.append(number) }
                case .uint64(let number): entry.appendVariant(signature: "t") { $0.append(number) }
                case .bool(let flag): entry.appendVariant(signature: "b") { $0.append(flag) }
                }
            }
        }
    }

    /// The programs whose announcements the service follows, as `source` names them. A newer service may name
    /// others; a reader shows those by their name.
    public struct Source: RecordWord {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// PackageKit's transactions while they download.
        public static let packagekit: Source = "packagekit"
        /// The progress an app shows on its launcher (the LauncherEntry protocol).
        public static let launcher: Source = "launcher"
        /// What an app moved on the network, as the kernel counted it: no program told of it.
        public static let traffic: Source = "traffic"
    }

    /// How an activity of the history ended, as `outcome` names it. A newer service may name others.
    public struct Outcome: RecordWord {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Its program ended it, or its source said it was done, with no stop asked.
        public static let ended: Outcome = "ended"
        /// It ended after someone asked it to stop (`RequestCancel`), however it then ended.
        public static let stopped: Outcome = "stopped"
        /// Its program left the bus without ending it: it exited or crashed.
        public static let left: Outcome = "left"
        /// Its timeout passed.
        public static let expired: Outcome = "expired"
        /// `Reset` ended it.
        public static let reset: Outcome = "reset"
        /// Its app went away while its network was paused.
        public static let paused: Outcome = "paused"
    }

    public var id: UInt32
    public var label: String
    /// The unique bus name of the connection that began it; `system:` before it for the system service's.
    public var owner: String
    /// Microseconds since the Unix epoch.
    public var startedAt: UInt64
    /// When it ends by itself, in microseconds since the Unix epoch; nil for one that has no deadline.
    public var deadline: UInt64?
    /// The Unix user it counts against.
    public var user: UInt32
    /// The process that began it; nil when unknown.
    public var processID: UInt32?
    /// The application that began it: its desktop file id where the system says it (`firefox-esr`,
    /// `org.gnome.Nautilus`), otherwise its process's command name; nil when unknown.
    public var application: String?
    /// Whether it is the system service's.
    public var isSystem: Bool
    /// Whether someone will hear a cancel request (`RequestCancel`).
    public var isCancellable: Bool
    /// Whether it has been asked to stop.
    public var isCancelRequested: Bool
    /// 0 to 100, when known.
    public var percent: UInt32?
    /// Bytes moved so far, when known.
    public var done: UInt64?
    /// Bytes to move in all, when known.
    public var total: UInt64?
    /// Bytes per second, when known.
    public var rate: UInt64?
    /// Of the bytes moved (`done`), those received and those sent, where the kernel measured them.
    public var received: UInt64?
    public var sent: UInt64?
    /// The program whose announcements the service followed to make it (`packagekit`, `launcher`, `traffic`); nil for an
    /// activity a caller began.
    public var source: Source?
    /// Whether the kernel holds the app's packets back (`Pause`): present only on an activity that can be paused,
    /// an app's measured traffic.
    public var isPaused: Bool?
    /// Whether the activity is an app's that `Pause` may pause (or `Resume` resume).
    public var isPausable: Bool { isPaused != nil }
    /// The speed limit a rule holds the app to, each way in bytes a second (`SetLimit`): present only on an app's
    /// measured traffic that a rule limits that way.
    public var limitDown: UInt64?
    public var limitUp: UInt64?
    /// What a rule, or the user's data saver, has the app do on a metered network: "pause", "allow", or bytes a
    /// second in decimal (on the bus, `s` or `t`, as `GetLimits`' `metered`); present only where one says.
    public var limitOnMetered: String?
    /// True where a rule lets the app go on past a used-up data plan; absent otherwise.
    public var limitOverPlan: Bool?
    /// For an entry of the history (`GetHistory`): when it ended, in microseconds since the Unix epoch.
    public var endedAt: UInt64?
    /// For an entry of the history: how it ended (`ended`, `stopped`, `left`, `expired`, `reset`).
    public var outcome: Outcome?

    public init(
        id: UInt32, label: String, owner: String, startedAt: UInt64, deadline: UInt64? = nil, user: UInt32,
        processID: UInt32? = nil, application: String? = nil, isSystem: Bool = false, isCancellable: Bool = false, isCancelRequested: Bool = false,
        percent: UInt32? = nil, done: UInt64? = nil, total: UInt64? = nil, rate: UInt64? = nil,
        received: UInt64? = nil, sent: UInt64? = nil, source: Source? = nil, isPaused: Bool? = nil,
        limitDown: UInt64? = nil, limitUp: UInt64? = nil, limitOnMetered: String? = nil, limitOverPlan: Bool? = nil,
        endedAt: UInt64? = nil, outcome: Outcome? = nil
    ) {
        self.id = id
        self.label = label
        self.owner = owner
        self.startedAt = startedAt
        self.deadline = deadline
        self.user = user
        self.processID = processID
        self.application = application
        self.isSystem = isSystem
        self.isCancellable = isCancellable
        self.isCancelRequested = isCancelRequested
        self.percent = percent
        self.done = done
        self.total = total
        self.rate = rate
        self.received = received
        self.sent = sent
        self.source = source
        self.isPaused = isPaused
        self.limitDown = limitDown
        self.limitUp = limitUp
        self.limitOnMetered = limitOnMetered
        self.limitOverPlan = limitOverPlan
        self.endedAt = endedAt
        self.outcome = outcome
    }

    /// The record's keys and values, in the order the service writes them: what the bus's `a{sv}` and the
    /// programs' JSON are both made of, so that they cannot differ.
    public func forEachField(_ body: (String, FieldValue) -> Void) {
        body(Key.label, .string(label))
        body(Key.owner, .string(owner))
        body(Key.started, .uint64(startedAt))
        // On the wire, 0 stands for "no deadline" and "no process", as in ListActivities.
        body(Key.deadline, .uint64(deadline ?? 0))
        body(Key.user, .uint32(user))
        body(Key.process, .uint32(processID ?? 0))
        if let application { body(Key.app, .string(application)) }
        body(Key.system, .bool(isSystem))
        body(Key.cancellable, .bool(isCancellable))
        body(Key.cancelRequested, .bool(isCancelRequested))
        if let percent { body(Key.percent, .uint32(percent)) }
        if let done { body(Key.done, .uint64(done)) }
        if let total { body(Key.total, .uint64(total)) }
        if let rate { body(Key.rate, .uint64(rate)) }
        if let received { body(Key.received, .uint64(received)) }
        if let sent { body(Key.sent, .uint64(sent)) }
        if let source { body(Key.source, .string(source.rawValue)) }
        if let isPaused { body(Key.paused, .bool(isPaused)) }
        if let limitDown { body(Key.limitDown, .uint64(limitDown)) }
        if let limitUp { body(Key.limitUp, .uint64(limitUp)) }
        if let limitOnMetered { body(Key.limitMetered, LimitRecord.meteredValue(limitOnMetered)) }
        if let limitOverPlan { body(Key.limitOverPlan, .bool(limitOverPlan)) }
        if let endedAt { body(Key.ended, .uint64(endedAt)) }
        if let outcome { body(Key.outcome, .string(outcome.rawValue)) }
    }

    public func encode(to writer: inout MessageWriter) {
        writer.appendStruct { fields in
            fields.append(id)
            fields.appendArray(elementSignature: "{sv}") { entries in
                // Written in place, not through `Variant`, which boxes each value in a closure: the service's CPU
                // for 10,000 records went from 112 to 90 ms (2026-11-25).
                forEachField { key, value in value.append(as: key, to: &entries) }
            }
        }
    }

    /// Reads a record; a key that is missing takes its "unknown" value, and a key of the wrong type is refused.
    public init(from reader: inout MessageReader) throws(DBusError) {
        let (id, values) = try reader.readStruct(Self.dbusSignature) {
            (fields: inout MessageReader) throws(DBusError) in
            (try fields.read(UInt32.self), try fields.read([String: ReceivedVariant].self))
        }
        func value<Value: DBusDecodable>(_ key: String, _ type: Value.Type) throws(DBusError) -> Value? {
            try values[key]?.decode(Value.self)
        }
        let deadline = try value(Key.deadline, UInt64.self) ?? 0
        let process = try value(Key.process, UInt32.self) ?? 0
        self.init(
            id: id, label: try value(Key.label, String.self) ?? "", owner: try value(Key.owner, String.self) ?? "",
            startedAt: try value(Key.started, UInt64.self) ?? 0, deadline: deadline == 0 ? nil : deadline,
            user: try value(Key.user, UInt32.self) ?? UInt32.max, processID: process == 0 ? nil : process,
            application: try value(Key.app, String.self),
            isSystem: try value(Key.system, Bool.self) ?? false,
            isCancellable: try value(Key.cancellable, Bool.self) ?? false,
            isCancelRequested: try value(Key.cancelRequested, Bool.self) ?? false,
            percent: try value(Key.percent, UInt32.self), done: try value(Key.done, UInt64.self),
            total: try value(Key.total, UInt64.self), rate: try value(Key.rate, UInt64.self),
            received: try value(Key.received, UInt64.self), sent: try value(Key.sent, UInt64.self),
            source: try value(Key.source, String.self).map(Source.init(rawValue:)),
            isPaused: try value(Key.paused, Bool.self),
            limitDown: try value(Key.limitDown, UInt64.self), limitUp: try value(Key.limitUp, UInt64.self),
            limitOnMetered: try values[Key.limitMetered].map(LimitRecord.meteredWord),
            limitOverPlan: try value(Key.limitOverPlan, Bool.self),
            endedAt: try value(Key.ended, UInt64.self),
            outcome: try value(Key.outcome, String.self).map(Outcome.init(rawValue:)))
    }
}

/// `ActivitiesChanged(a(ua{sv}) changed, au ended)`.
public struct ActivityChangeReport: Sendable, Equatable {
    /// The whole record of every activity begun or changed since the last report.
    public var changed: [ActivityDetails]
    /// The ids of the activities ended since the last report.
    public var ended: [UInt32]

    public init(changed: [ActivityDetails], ended: [UInt32]) {
        self.changed = changed
        self.ended = ended
    }

    /// Reads the signal's arguments, as its declaration has them.
    public init(_ signal: Message) throws(DBusError) {
        let (changed, ended) = try ServiceMembers.activitiesChanged.read(signal)
        self.init(changed: changed, ended: ended)
    }
}

/// A word the record's values are made of (a source's name, an outcome): declared once as a constant, and
/// read as any string, so that a newer service's words pass through.
public protocol RecordWord: RawRepresentable<String>, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible {}

extension RecordWord {
    public init(stringLiteral value: String) { self.init(rawValue: value)! }
    public var description: String { rawValue }
}
