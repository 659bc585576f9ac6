// SPDX-License-Identifier: Apache-2.0
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

    public init(application: String, label: String, user: UInt32, network: String, isMetered: Bool,
                received: UInt64, sent: UInt64, day: String) {
        self.application = application
        self.label = label
        self.user = user
        self.network = network
        self.isMetered = isMetered
        self.received = received
        self.sent = sent
        self.day = day
    }

    public var total: UInt64 { received &+ sent }

    public func encode(to writer: inout MessageWriter) {
        writer.appendArray(elementSignature: "{sv}") { entries in
            func add(_ key: String, _ signature: String, _ write: (inout MessageWriter) -> Void) {
                entries.appendDictEntry { entry in
                    entry.append(key)
                    entry.appendVariant(signature: signature, write)
                }
            }
            add(Key.app, "s") { $0.append(application) }
            add(Key.label, "s") { $0.append(label) }
            add(Key.user, "u") { $0.append(user) }
            add(Key.network, "s") { $0.append(network) }
            add(Key.metered, "b") { $0.append(isMetered) }
            add(Key.received, "t") { $0.append(received) }
            add(Key.sent, "t") { $0.append(sent) }
            add(Key.day, "s") { $0.append(day) }
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
                  day: try value(Key.day, String.self) ?? "")
    }
}
