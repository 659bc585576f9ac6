// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// polkit's authority on the system bus, `org.freedesktop.PolicyKit1`: the one call the system service makes to ask
/// whether a caller who is not root may do what an action of ours (`dbus/org.example.NetworkActivity.policy`)
/// allows, declared once.
public enum PolkitInterface {
    public static let authority = RemoteObject(
        "org.freedesktop.PolicyKit1", at: "/org/freedesktop/PolicyKit1/Authority", "org.freedesktop.PolicyKit1.Authority")

    /// Whether `subject` is authorized for `action_id`, asking the person through their authentication agent where
    /// the flags allow it.
    public static let checkAuthorization = Method(
        "CheckAuthorization", of: authority.interface, Argument<PolkitSubject>("subject"),
        Argument<String>("action_id"), Argument<[String: String]>("details"), Argument<UInt32>("flags"),
        Argument<String>("cancellation_id"), output: Argument<PolkitAuthorizationResult>("result"))

    /// `CheckAuthorization`'s flag that lets polkit ask the person (`AllowUserInteraction`).
    public static let allowUserInteraction: UInt32 = 1

    /// Our action: setting, removing and resuming the machine's data plans.
    public static let managePlans = "org.example.NetworkActivity.manage-plans"
}

/// Whom polkit is asked about, `(sa{sv})`: a connection of the bus, by its unique name (polkit then asks the bus
/// for its process and user, so that no caller can name another).
public struct PolkitSubject: DBusEncodable, Sendable {
    public static var dbusSignature: String { "(sa{sv})" }

    public var busName: String

    public init(busName: String) {
        self.busName = busName
    }

    public func encode(to writer: inout MessageWriter) {
        writer.appendStruct { fields in
            fields.append("system-bus-name")
            fields.appendArray(elementSignature: "{sv}") { entries in
                entries.appendDictEntry { entry in
                    entry.append("name")
                    entry.appendVariant(signature: "s") { $0.append(busName) }
                }
            }
        }
    }
}

/// polkit's answer, `(bba{ss})`: whether the subject is authorized, and whether it could be after authenticating.
public struct PolkitAuthorizationResult: DBusDecodable, Sendable {
    public static var dbusSignature: String { "(bba{ss})" }

    public var isAuthorized: Bool
    public var isChallenge: Bool

    public init(from reader: inout MessageReader) throws(DBusError) {
        (isAuthorized, isChallenge) = try reader.readStruct(Self.dbusSignature) { fields throws(DBusError) in
            let authorized = try fields.read(Bool.self)
            let challenge = try fields.read(Bool.self)
            _ = try fields.read([String: String].self)
            return (authorized, challenge)
        }
    }
}
