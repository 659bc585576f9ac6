// SPDX-License-Identifier: Apache-2.0
import ProgramSupport
public import DBusKit

/// One row of `GetUsage`, `a{sv}`: the bytes an app of a user received and sent on a network on a day, in a
/// dictionary that later versions may extend. Readers ignore keys they do not know.
public struct UsageRecord: DBusCodable, Hashable, Sendable {
    public static var dbusSignature: String { "a{sv}" }

    /// The record's keys, as the interface XML names them; `netactivity usage --json` writes the same.
    public enum Key {
        public static let app = "app"
        public static let label = "label"
        public static let user = "user"
        public static let network = "network"
        public static let metered = "metered"
        public static let received = "received"
        public static let sent = "sent"
        public static let day = "day"
        public static let privateTo = "private-to"
    }

    /// The app, named as traffic activities name it (desktop id, command, unit); `kernel` for sockets of the
    /// cgroup tree's root, `unknown` for an app gone before it was named, `other-apps` past a day's bound.
    public var application: String
    /// Its name for people.
    public var label: String
    /// The Unix user that owned its sockets.
    public var user: UInt32
    /// NetworkManager's connection (`Phone hotspot`), else the interface (`eth0`).
    public var network: String
    /// Whether the network was metered when the bytes moved.
    public var isMetered: Bool
    public var received: UInt64
    public var sent: UInt64
    /// The local day, `YYYY-MM-DD`.
    public var day: String
    /// The user in whose slice the app ran, who alone (with root) may read the row; nil for the machine's
    /// services, which everyone may read. A session shows its own user's and the machine's
    /// (`TrafficVisibility.shows(sliceUser:toUser:)`), as it shows their activities.
    public var privateTo: UInt32?

    public init(application: String, label: String, user: UInt32, network: String, isMetered: Bool,
                received: UInt64, sent: UInt64, day: String, privateTo: UInt32?) {
        self.application = application
        self.label = label
        self.user = user
        self.network = network
        self.isMetered = isMetered
        self.received = received
        self.sent = sent
        self.day = day
        self.privateTo = privateTo
    }

    public var total: UInt64 { ByteCounts.sum(received, sent) }

    /// The record's keys and values, in the order the service writes them: what the bus's `a{sv}` and
    /// `netactivity usage --json` are both made of. `private-to` is left out for the machine's services.
    public var fields: [(key: String, value: ActivityDetails.FieldValue)] {
        [(Key.app, .string(application)), (Key.label, .string(label)), (Key.user, .uint32(user)),
         (Key.network, .string(network)), (Key.metered, .bool(isMetered)), (Key.received, .uint64(received)),
         (Key.sent, .uint64(sent)), (Key.day, .string(day))]
            + (privateTo.map { [(Key.privateTo, .uint32($0))] } ?? [])
    }

    public func encode(to writer: inout MessageWriter) {
        writer.appendArray(elementSignature: "{sv}") { entries in
            for (key, value) in fields { value.append(as: key, to: &entries) }
        }
    }

    /// Reads a record; a key that is missing takes its "unknown" value, and a key of the wrong type is refused.
    public init(from reader: inout MessageReader) throws(DBusError) {
        let values = try reader.read([String: ReceivedVariant].self)
        func value<Value: DBusDecodable>(_ key: String, _ type: Value.Type) throws(DBusError) -> Value? {
            try values[key]?.decode(Value.self)
        }
        self.init(application: try value(Key.app, String.self) ?? "", label: try value(Key.label, String.self) ?? "",
                  user: try value(Key.user, UInt32.self) ?? UInt32.max,
                  network: try value(Key.network, String.self) ?? "",
                  isMetered: try value(Key.metered, Bool.self) ?? false,
                  received: try value(Key.received, UInt64.self) ?? 0, sent: try value(Key.sent, UInt64.self) ?? 0,
                  day: try value(Key.day, String.self) ?? "", privateTo: try value(Key.privateTo, UInt32.self))
    }
}
