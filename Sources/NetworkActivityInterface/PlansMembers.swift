// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// Every member of `org.example.NetworkActivity.Plans`, declared once, as
/// `dbus/org.example.NetworkActivity.Plans.xml` defines it: the machine's data plans, by network, which the system
/// service keeps and has the kernel keep to.
public enum PlansMembers {
    private static let interface = ServiceNames.plansInterface

    /// Sets a network's plan, in place of the one it had (root only).
    public static let setPlan = Method("SetPlan", of: interface, Argument<String>("network"),
                                       Argument<PlanSettings>("plan"))
    /// Removes a network's plan (root only).
    public static let removePlan = Method("RemovePlan", of: interface, Argument<String>("network"))
    /// Lets the network's apps go on past its cap until the period ends (root, or whom polkit authorizes).
    public static let resumePlan = Method("ResumePlan", of: interface, Argument<String>("network"))
    /// Every plan, with what is used of it.
    public static let getPlans = Method("GetPlans", of: interface, output: Argument<[PlanRecord]>("plans"))

    /// A plan was set or removed, or crossed its warning level, was used up or began a new period.
    public static let plansChanged = Signal("PlansChanged", of: interface)

    public static let all: [any InterfaceMember] = [setPlan, removePlan, resumePlan, getPlans, plansChanged]
}

/// What `SetPlan` sets, `a{sv}`: `cap` (t, bytes) and `period` (s: day, week or month) always, `starts` and `warn`
/// (u) where given. A key of another name or type is refused (`InvalidArgs`), so that a client never believes a
/// plan was set that this version does not know.
public struct PlanSettings: DBusCodable, Hashable, Sendable {
    public static var dbusSignature: String { "a{sv}" }

    public var cap: UInt64
    public var period: String
    /// The day a period starts: a week's 1 (Monday) to 7, a month's 1 to 31; nil for the first.
    public var starts: UInt32?
    /// The percent of the cap at which people are told; nil for 80.
    public var warn: UInt32?

    public init(cap: UInt64, period: String, starts: UInt32? = nil, warn: UInt32? = nil) {
        self.cap = cap
        self.period = period
        self.starts = starts
        self.warn = warn
    }

    public func encode(to writer: inout MessageWriter) {
        writer.appendArray(elementSignature: "{sv}") { entries in
            ActivityDetails.FieldValue.uint64(cap).append(as: PlanRecord.Key.cap, to: &entries)
            ActivityDetails.FieldValue.string(period).append(as: PlanRecord.Key.period, to: &entries)
            if let starts { ActivityDetails.FieldValue.uint32(starts).append(as: PlanRecord.Key.starts, to: &entries) }
            if let warn { ActivityDetails.FieldValue.uint32(warn).append(as: PlanRecord.Key.warn, to: &entries) }
        }
    }

    public init(from reader: inout MessageReader) throws(DBusError) {
        let values = try reader.read([String: ReceivedVariant].self)
        let signatures = [PlanRecord.Key.cap: "t", PlanRecord.Key.period: "s", PlanRecord.Key.starts: "u",
                          PlanRecord.Key.warn: "u"]
        for key in values.keys.sorted() {
            guard let signature = signatures[key] else {
                throw DBusError(.invalidArgs, "a plan has the keys cap, period, starts and warn, not \"\(key)\"")
            }
            guard values[key]?.signature == signature else {
                throw DBusError(.invalidArgs, "a plan's \(key) is of type \(signature), not \(values[key]?.signature ?? "")")
            }
        }
        guard let cap = try values[PlanRecord.Key.cap]?.decode(UInt64.self),
              let period = try values[PlanRecord.Key.period]?.decode(String.self) else {
            throw DBusError(.invalidArgs, "a plan needs its cap (t, bytes) and its period (s)")
        }
        self.init(cap: cap, period: period, starts: try values[PlanRecord.Key.starts]?.decode(UInt32.self),
                  warn: try values[PlanRecord.Key.warn]?.decode(UInt32.self))
    }
}

/// One plan of `GetPlans`, `a{sv}`: its settings, and this period's first day, the day it resets, the bytes used
/// and left, and its level. Readers ignore keys they do not know.
public struct PlanRecord: DBusCodable, Hashable, Sendable {
    public static var dbusSignature: String { "a{sv}" }

    /// The record's keys, as the interface XML names them; `netactivity plans --json` writes the same.
    public enum Key {
        public static let network = "network"
        public static let cap = "cap"
        public static let period = "period"
        public static let starts = "starts"
        public static let warn = "warn"
        public static let used = "used"
        public static let left = "left"
        public static let since = "since"
        public static let resets = "resets"
        public static let level = "level"
        public static let resumed = "resumed"
    }

    /// How far the period is used, as the service judges it (`Key.level`): below its warning, past it, or used up
    /// (no full packet fits in what is left).
    public enum Level: String, Sendable {
        case normal
        case warning
        case usedUp = "used-up"
    }

    public var network: String
    public var settings: PlanSettings
    public var used: UInt64
    /// `YYYY-MM-DD`, local days.
    public var since: String
    public var resets: String
    /// Nil from a service that does not say.
    public var level: Level?
    /// Whether the network's apps go on past the cap this period (`ResumePlan`).
    public var isResumed: Bool

    public init(network: String, settings: PlanSettings, used: UInt64, since: String, resets: String,
                level: Level?, isResumed: Bool = false) {
        self.network = network
        self.settings = settings
        self.used = used
        self.since = since
        self.resets = resets
        self.level = level
        self.isResumed = isResumed
    }

    /// The bytes that may still move this period.
    public var left: UInt64 { settings.cap > used ? settings.cap - used : 0 }

    public var fields: [(key: String, value: ActivityDetails.FieldValue)] {
        [(Key.network, .string(network)), (Key.cap, .uint64(settings.cap)), (Key.period, .string(settings.period)),
         (Key.starts, .uint32(settings.starts ?? 1)), (Key.warn, .uint32(settings.warn ?? 80)),
         (Key.used, .uint64(used)), (Key.left, .uint64(left)), (Key.since, .string(since)),
         (Key.resets, .string(resets))] + (level.map { [(Key.level, .string($0.rawValue))] } ?? [])
            + [(Key.resumed, .bool(isResumed))]
    }

    public func encode(to writer: inout MessageWriter) {
        writer.appendArray(elementSignature: "{sv}") { entries in
            for (key, value) in fields { value.append(as: key, to: &entries) }
        }
    }

    public init(from reader: inout MessageReader) throws(DBusError) {
        let values = try reader.read([String: ReceivedVariant].self)
        self.init(network: try values[Key.network]?.decode(String.self) ?? "",
                  settings: PlanSettings(cap: try values[Key.cap]?.decode(UInt64.self) ?? 0,
                                         period: try values[Key.period]?.decode(String.self) ?? "",
                                         starts: try values[Key.starts]?.decode(UInt32.self),
                                         warn: try values[Key.warn]?.decode(UInt32.self)),
                  used: try values[Key.used]?.decode(UInt64.self) ?? 0,
                  since: try values[Key.since]?.decode(String.self) ?? "",
                  resets: try values[Key.resets]?.decode(String.self) ?? "",
                  level: (try values[Key.level]?.decode(String.self)).flatMap(Level.init(rawValue:)),
                  isResumed: try values[Key.resumed]?.decode(Bool.self) ?? false)
    }
}
