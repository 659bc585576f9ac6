// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// Every member of `org.example.NetworkActivity.Limits`, declared once, as
/// `dbus/org.example.NetworkActivity.Limits.xml` defines it: the speed limits each user sets on their apps, by
/// app id, which the system service keeps and has the kernel hold.
public enum LimitsMembers {
    private static let interface = ServiceNames.limitsInterface

    /// Sets the caller's rule for an app: each key given (`LimitRecord.Key.down`, `.up`, bytes a second, 0 for
    /// none; `.overPlan`, "allow" or "stop") changes, the others stay.
    public static let setLimit = Method("SetLimit", of: interface, Argument<String>("app"),
                                        Argument<LimitChange>("limit"))
    /// Removes the caller's rule for an app.
    public static let removeLimit = Method("RemoveLimit", of: interface, Argument<String>("app"))
    /// The caller's rules.
    public static let getLimits = Method("GetLimits", of: interface, output: Argument<[LimitRecord]>("limits"))

    public static let all: [any InterfaceMember] = [setLimit, removeLimit, getLimits]
}

/// One rule of `GetLimits`, `a{sv}`: an app's limit each way, in bytes a second (a way without a limit has no
/// key), and "over-plan": "allow" for an app that goes on past a used-up data plan. Readers ignore keys they do
/// not know.
public struct LimitRecord: DBusCodable, Hashable, Sendable {
    public static var dbusSignature: String { "a{sv}" }

    /// The record's keys, as the interface XML names them; `netactivity limits --json` writes the same.
    public enum Key {
        public static let app = "app"
        public static let down = "down"
        public static let up = "up"
        public static let overPlan = "over-plan"
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

    public init(application: String, down: UInt64?, up: UInt64?, exemptFromPlans: Bool = false) {
        self.application = application
        self.down = down
        self.up = up
        self.exemptFromPlans = exemptFromPlans
    }

    public var fields: [(key: String, value: ActivityDetails.FieldValue)] {
        [(Key.app, .string(application))] + (down.map { [(Key.down, .uint64($0))] } ?? [])
            + (up.map { [(Key.up, .uint64($0))] } ?? [])
            + (exemptFromPlans ? [(Key.overPlan, .string(OverPlan.allow))] : [])
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
                  exemptFromPlans: try values[Key.overPlan]?.decode(String.self) == OverPlan.allow)
    }
}

/// What `SetLimit` changes, `a{sv}`: each way given, in bytes a second, 0 for no limit; "over-plan", "allow" or
/// "stop"; a key not given stays. A key of another name, type or word is refused (`InvalidArgs`), so that a client
/// never believes a limit was set that this version does not know.
public struct LimitChange: DBusCodable, Hashable, Sendable {
    public static var dbusSignature: String { "a{sv}" }

    public var down: UInt64?
    public var up: UInt64?
    /// True: the app goes on past a used-up plan; false: it stops there; nil: as it was.
    public var exemptFromPlans: Bool?

    public init(down: UInt64? = nil, up: UInt64? = nil, exemptFromPlans: Bool? = nil) {
        self.down = down
        self.up = up
        self.exemptFromPlans = exemptFromPlans
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
        }
    }

    public init(from reader: inout MessageReader) throws(DBusError) {
        let values = try reader.read([String: ReceivedVariant].self)
        let known = [LimitRecord.Key.down, LimitRecord.Key.up, LimitRecord.Key.overPlan]
        if let unknown = values.keys.sorted().first(where: { !known.contains($0) }) {
            throw DBusError(.invalidArgs, "a limit has the keys down, up and over-plan, not \"\(unknown)\"")
        }
        for (key, value) in values where key != LimitRecord.Key.overPlan && value.signature != "t" {
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
                  up: try values[LimitRecord.Key.up]?.decode(UInt64.self), exemptFromPlans: exempt)
    }
}
