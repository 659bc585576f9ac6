// SPDX-License-Identifier: Apache-2.0
internal import CDBus
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The rule that a kind of D-Bus name obeys, checked by libdbus's own `dbus_validate_*` functions.
public protocol DBusNameKind: Sendable {
    /// How the kind is called in error messages ("object path", "bus name", …).
    static var kindDescription: String { get }
    /// Whether `name` is valid for this kind, as libdbus judges it.
    static func isValid(_ name: String) -> Bool
}

/// A string that is known to be a valid D-Bus name of kind `Kind`.
///
/// libdbus aborts the process when it is handed an invalid object path, bus name, interface, member or error
/// name, so every such name that reaches libdbus goes through this type: it can only be built by validation.
public struct DBusName<Kind: DBusNameKind>: Hashable, Sendable, CustomStringConvertible {
    /// The name as a string.
    public let rawValue: String

    /// Validates `rawValue`; throws `InvalidArgs` naming the kind when libdbus would reject it.
    public init(_ rawValue: String) throws(DBusError) {
        // C sees a Swift string only up to its first NUL, so libdbus alone would pass "/a\0b" as "/a".
        guard !rawValue.utf8.contains(0), Kind.isValid(rawValue) else {
            throw DBusError(.invalidArgs, "\"\(rawValue)\" is not a valid D-Bus \(Kind.kindDescription)")
        }
        self.rawValue = rawValue
    }

    /// For names that libdbus itself handed us, which it has already validated.
    init(trusted rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// Whether `field`, a header field of a message (`Message.memberField`), is this name.
    func names(_ field: UnsafePointer<CChar>?) -> Bool {
        guard let field else { return false }
        return rawValue.withCString { strcmp($0, field) == 0 }
    }
}

extension DBusName: ExpressibleByStringLiteral {
    /// A name written in the source; an invalid literal is a programming error and stops the program here,
    /// before libdbus would.
    public init(stringLiteral value: String) {
        guard !value.utf8.contains(0), Kind.isValid(value) else {
            preconditionFailure("\"\(value)\" is not a valid D-Bus \(Kind.kindDescription)")
        }
        self.rawValue = value
    }
}

public enum ObjectPathKind: DBusNameKind {
    public static let kindDescription = "object path"
    public static func isValid(_ name: String) -> Bool { dbus_validate_path(name, nil) != 0 }
}

public enum BusNameKind: DBusNameKind {
    public static let kindDescription = "bus name"
    public static func isValid(_ name: String) -> Bool { dbus_validate_bus_name(name, nil) != 0 }
}

public enum InterfaceNameKind: DBusNameKind {
    public static let kindDescription = "interface name"
    public static func isValid(_ name: String) -> Bool { dbus_validate_interface(name, nil) != 0 }
}

public enum MemberNameKind: DBusNameKind {
    public static let kindDescription = "member name"
    public static func isValid(_ name: String) -> Bool { dbus_validate_member(name, nil) != 0 }
}

public enum ErrorNameKind: DBusNameKind {
    public static let kindDescription = "error name"
    public static func isValid(_ name: String) -> Bool { dbus_validate_error_name(name, nil) != 0 }
}

/// An object path such as `/org/example/NetworkActivity`.
public typealias ObjectPath = DBusName<ObjectPathKind>
/// A unique (`:1.42`) or well-known (`org.example.NetworkActivity`) bus name.
public typealias BusName = DBusName<BusNameKind>
/// An interface name such as `org.freedesktop.DBus.Properties`.
public typealias InterfaceName = DBusName<InterfaceNameKind>
/// A method or signal name such as `Begin`.
public typealias MemberName = DBusName<MemberNameKind>
/// An error name such as `org.freedesktop.DBus.Error.InvalidArgs`.
public typealias ErrorName = DBusName<ErrorNameKind>
