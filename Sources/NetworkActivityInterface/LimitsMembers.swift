// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// Every member of `org.example.NetworkActivity.Limits`, declared once, as
/// `dbus/org.example.NetworkActivity.Limits.xml` defines it: the speed limits each user sets on their apps, by
/// app id, which the system service keeps and has the kernel hold.
public enum LimitsMembers {
    private static let interface = ServiceNames.limitsInterface

    /// Sets the caller's rule for an app: each key given (`LimitRecord.Key.down`, `.up`, bytes a second, 0 for
    /// none) changes, the other stays.
    public static let setLimit = Method("SetLimit", of: interface, Argument<String>("app"),
                                        Argument<LimitChange>("limit"))
    /// Removes the caller's rule for an app.
    public static let removeLimit = Method("RemoveLimit", of: interface, Argument<String>("app"))
    /// The caller's rules.
    public static let getLimits = Method("GetLimits", of: interface, output: Argument<[LimitRecord]>("limits"))

    public static let all: [any InterfaceMember] = [setLimit, removeLimit, getLimits]
}

/// One rule of `GetLimits`, `a{sv}`: an app's limit each way, in bytes a second; a way without a limit has no
/// key. Readers ignore keys they do not know.
public struct LimitRecord: DBusCodable, Hashable, Sendable {
    public static var dbusSignature: String { "a{sv}" }

    /// The record's keys, as the interface XML names them; `netactivity limits --json` writes the same.
    public enum Key {
        public static let app = "app"
        public static let down = "down"
        public static let up = "up"
    }

    public var application: String
    public var down: UInt64?
    public var up: UInt64?

    public init(application: String, down: UInt64?, up: UInt64?) {
        self.application = application
        self.down = down
        self.up = up
    }

    public var fields: [(key: String, value: ActivityDetails.FieldValue)] {
        [(Key.app, .string(application))] + (down.map { [(Key.down, .uint64($0))] } ?? [])
            + (up.map { [(Key.up, .uint64($0))] } ?? [])
    }

    public func encode(to writer: inout MessageWriter) {
        writer.appendArray(elementSignature: "{sv}") { entries in
            for (key, value) in fields { value.append(as: key, to: &entries) }
        }
    }

    public init(from reader: inout MessageReader) throws(DBusError) {
        let values = try reader.read([String: ReceivedVariant].self)
        self.init(application: try values[Key.app]?.decode(String.self) ?? "",
                  down: try values[Key.down]?.decode(UInt64.self), up: try values[Key.up]?.decode(UInt64.self))
    }
}

/// What `SetLimit` changes, `a{sv}`: each way given, in bytes a second, 0 for no limit; a way not given stays. A
/// key of another name or type is refused (`InvalidArgs`), so that a client never believes a limit was set that
/// this version does not know.
public struct LimitChange: DBusCodable, Hashable, Sendable {
    public static var dbusSignature: String { "a{sv}" }

    public var down: UInt64?
    public var up: UInt64?

    public init(down: UInt64? = nil, up: UInt64? = nil) {
        self.down = down
        self.up = up
    }

    public func encode(to writer: inout MessageWriter) {
        writer.appendArray(elementSignature: "{sv}") { entries in
            for (key, rate) in [(LimitRecord.Key.down, down), (LimitRecord.Key.up, up)] {
                if let rate { ActivityDetails.FieldValue.uint64(rate).append(as: key, to: &entries) }
            }
        }
    }

    public init(from reader: inout MessageReader) throws(DBusError) {
        let values = try reader.read([String: ReceivedVariant].self)
        if let unknown = values.keys.sorted().first(where: { $0 != LimitRecord.Key.down && $0 != LimitRecord.Key.up }) {
            throw DBusError(.invalidArgs, "a limit has the keys down and up, not \"\(unknown)\"")
        }
        for (key, value) in values where value.signature != "t" {
            throw DBusError(.invalidArgs, "a limit's \(key) is bytes a second, a u64 (t), not \(value.signature)")
        }
        self.init(down: try values[LimitRecord.Key.down]?.decode(UInt64.self),
                  up: try values[LimitRecord.Key.up]?.decode(UInt64.self))
    }
}
