// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// Every member of `org.example.NetworkActivity.Limits`, declared once, as
/// `dbus/org.example.NetworkActivity.Limits.xml` defines it: the speed limits each user sets on their apps, by
/// app id, which the system service keeps and has the kernel hold.
public enum LimitsMembers {
    private static let interface = ServiceNames.limitsInterface

    /// Sets the caller's rule for an app: each key given (`LimitRecord.Key.down`, `.up`, bytes a second, 0 for
    /// none; `.overPlan`, "allow" or "stop"; `.metered`, "pause", "allow", "none" or bytes a second) changes, the
    /// others stay.
    public static let setLimit = Method("SetLimit", of: interface, Argument<String>("app"),
                                        Argument<LimitChange>("limit"))
    /// Removes the caller's rule for an app.
    public static let removeLimit = Method("RemoveLimit", of: interface, Argument<String>("app"))
    /// The caller's rules.
    public static let getLimits = Method("GetLimits", of: interface, output: Argument<[LimitRecord]>("limits"))
    /// Turns the caller's data saver on or off: while it is on, every app of theirs on a metered network is
    /// paused but those whose rule allows it or slows it there.
    public static let setSaver = Method("SetSaver", of: interface, Argument<Bool>("on"))
    /// Whether the caller's data saver is on.
    public static let getSaver = Method("GetSaver", of: interface, output: Argument<Bool>("on"))

    public static let all: [any InterfaceMember] = [setLimit, removeLimit, getLimits, setSaver, getSaver]
}

/// One rule of `GetLimits`, `a{sv}`: an app's limit each way, in bytes a second (a way without a limit has no
/// key), "over-plan": "allow" for an app that goes on past a used-up data plan, and "metered": "pause", "allow"
/// or bytes a second (`t`) on a metered network (no key: as the saver says). Readers ignore keys they do not know.
public struct LimitRecord: DBusCodable, Hashable, Sendable {
    public static var dbusSignature: String { "a{sv}" }

    /// The record's keys, as the interface XML names them; `netactivity limits --json` writes the same.
    public enum Key {
        public static let app = "app"
        public static let down = "down"
        public static let up = "up"
        public static let overPlan = "over-plan"
        public static let metered = "metered"
    }

    /// The words of `Key.metered` but a rate; and "none", which a change gives to leave it to the saver.
    public enum Metered {
        public static let pause = "pause"
        public static let allow = "allow"
        public static let none = "none"
    }

    /// The words of `Key.overPlan`.
    public enum OverPlan {
        /// The app goes on past a used-up plan.
        public static let allow = "allow"
        /// It stops there, as every app does without a rule that says otherwise.
        public static let stop = "stop"
    }

    public var application: String
    public var down: UInt64?
    public var up: UInt64?
    public var exemptFromPlans: Bool
    /// On a metered network: "pause", "allow", or bytes a second in decimal; nil for what the saver says.
    public var onMetered: String?

    public init(application: String, down: UInt64?, up: UInt64?, exemptFromPlans: Bool = false,
                onMetered: String? = nil) {
        self.application = application
        self.down = down
        self.up = up
        self.exemptFromPlans = exemptFromPlans
        self.onMetered = onMetered
    }

    public var fields: [(key: String, value: ActivityDetails.FieldValue)] {
        [(Key.app, .string(application))] + (down.map { [(Key.down, .uint64($0))] } ?? [])
            + (up.map { [(Key.up, .uint64($0))] } ?? [])
            + (exemptFromPlans ? [(Key.overPlan, .string(OverPlan.allow))] : [])
            + (onMetered.map { [(Key.metered, Self.meteredValue($0))] } ?? [])
    }

    /// A metered word as the bus carries it: a rate as a number, a word as a string.
    static func meteredValue(_ word: String) -> ActivityDetails.FieldValue {
        UInt64(word).map { .uint64($0) } ?? .string(word)
    }

    /// The word of a `Key.metered` value: a rate (`t`) in decimal, or a string as it is.
    static func meteredWord(_ value: ReceivedVariant) throws(DBusError) -> String {
        switch value.signature {
        case "t": String(try value.decode(UInt64.self))
        case "s": try value.decode(String.self)
        default: throw DBusError(.invalidArgs, "a limit's metered is a word (s) or bytes a second (t), not \(value.signature)")
        }
    }

    public func encode(to writer: inout MessageWriter) {
        writer.appendArray(elementSignature: "{sv}") { entries in
            for (key, value) in fields { value.append(as: key, to: &entries) }
        }
    }

    public init(from reader: inout MessageReader) throws(DBusError) {
        let values = try reader.read([String: ReceivedVariant].self)
        self.init(application: try values[Key.app]?.decode(String.self) ?? "",
                  down: try values[Key.down]?.decode(UInt64.self), up: try values[Key.up]?.decode(UInt64.self),
                  exemptFromPlans: try values[Key.overPlan]?.decode(String.self) == OverPlan.allow,
                  onMetered: try values[Key.metered].map(Self.meteredWord))
    }
}

/// What `SetLimit` changes, `a{sv}`: each way given, in bytes a second, 0 for no limit; "over-plan", "allow" or
/// "stop"; "metered", "pause", "allow", "none" or bytes a second (`t`); a key not given stays. A key of another name, type or word is refused (`InvalidArgs`), so that a client
/// never believes a limit was set that this version does not know.
public struct LimitChange: DBusCodable, Hashable, Sendable {
    public static var dbusSignature: String { "a{sv}" }

    public var down: UInt64?
    public var up: UInt64?
    /// True: the app goes on past a used-up plan; false: it stops there; nil: as it was.
    public var exemptFromPlans: Bool?
    /// On a metered network: "pause", "allow", bytes a second in decimal, or "none" (as the saver says); nil: as
    /// it was. Checked by the service, which knows the rates a rule may have.
    public var onMetered: String?

    public init(down: UInt64? = nil, up: UInt64? = nil, exemptFromPlans: Bool? = nil, onMetered: String? = nil) {
        self.down = down
        self.up = up
        self.exemptFromPlans = exemptFromPlans
        self.onMetered = onMetered
    }

    public func encode(to writer: inout MessageWriter) {
        writer.appendArray(elementSignature: "{sv}") { entries in
            for (key, rate) in [(LimitRecord.Key.down, down), (LimitRecord.Key.up, up)] {
                if let rate { ActivityDetails.FieldValue.uint64(rate).append(as: key, to: &entries) }
            }
            if let exemptFromPlans {
                let word = exemptFromPlans ? LimitRecord.OverPlan.allow : LimitRecord.OverPlan.stop
                ActivityDetails.FieldValue.string(word).append(as: LimitRecord.Key.overPlan, to: &entries)
            }
            if let onMetered { LimitRecord.meteredValue(onMetered).append(as: LimitRecord.Key.metered, to: &entries) }
        }
    }

    public init(from reader: inout MessageReader) throws(DBusError) {
        let values = try reader.read([String: ReceivedVariant].self)
        let known = [LimitRecord.Key.down, LimitRecord.Key.up, LimitRecord.Key.overPlan, LimitRecord.Key.metered]
        if let unknown = values.keys.sorted().first(where: { !known.contains($0) }) {
            throw DBusError(.invalidArgs, "a limit has the keys down, up, over-plan and metered, not \"\(unknown)\"")
        }
        for (key, value) in values
        where [LimitRecord.Key.down, LimitRecord.Key.up].contains(key) && value.signature != "t" {
            throw DBusError(.invalidArgs, "a limit's \(key) is bytes a second, a u64 (t), not \(value.signature)")
        }
        var exempt: Bool?
        if let overPlan = values[LimitRecord.Key.overPlan] {
            guard overPlan.signature == "s" else {
                throw DBusError(.invalidArgs, "a limit's over-plan is a string (s), not \(overPlan.signature)")
            }
            switch try overPlan.decode(String.self) {
            case LimitRecord.OverPlan.allow: exempt = true
            case LimitRecord.OverPlan.stop: exempt = false
            case let word: throw DBusError(.invalidArgs, "a limit's over-plan is allow or stop, not \"\(word)\"")
            }
        }
        self.init(down: try values[LimitRecord.Key.down]?.decode(UInt64.self),
                  up: try values[LimitRecord.Key.up]?.decode(UInt64.self), exemptFromPlans: exempt,
                  onMetered: try values[LimitRecord.Key.metered].map(LimitRecord.meteredWord))
    }
}
