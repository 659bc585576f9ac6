// SPDX-License-Identifier: Apache-2.0
/// A D-Bus error: a name that callers can match on and a human-readable message.
///
/// Thrown by every failing call of this module, and sent back as an error reply when a method handler throws.
public struct DBusError: Error, Hashable, Sendable, CustomStringConvertible {
    public let name: ErrorName
    public let message: String

    public init(_ name: ErrorName, _ message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name): \(message)" }
}

extension ErrorName {
    /// A generic failure: what any error that names no D-Bus error becomes.
    public static let failed: ErrorName = "org.freedesktop.DBus.Error.Failed"
    /// Arguments of the wrong type or number, or values out of range.
    public static let invalidArgs: ErrorName = "org.freedesktop.DBus.Error.InvalidArgs"
    /// No such method on the object, or none with that signature.
    public static let unknownMethod: ErrorName = "org.freedesktop.DBus.Error.UnknownMethod"
    /// The object does not implement the interface.
    public static let unknownInterface: ErrorName = "org.freedesktop.DBus.Error.UnknownInterface"
    /// No object at the path.
    public static let unknownObject: ErrorName = "org.freedesktop.DBus.Error.UnknownObject"
    /// The interface has no such property.
    public static let unknownProperty: ErrorName = "org.freedesktop.DBus.Error.UnknownProperty"
    /// The property cannot be set.
    public static let propertyReadOnly: ErrorName = "org.freedesktop.DBus.Error.PropertyReadOnly"
    /// The caller is not allowed to do this.
    public static let accessDenied: ErrorName = "org.freedesktop.DBus.Error.AccessDenied"
    /// Nobody owns the destination name.
    public static let serviceUnknown: ErrorName = "org.freedesktop.DBus.Error.ServiceUnknown"
    /// Nobody owns the destination name, and the call asked the bus not to start a service for it.
    public static let nameHasNoOwner: ErrorName = "org.freedesktop.DBus.Error.NameHasNoOwner"
    /// The peer did not answer in time.
    public static let noReply: ErrorName = "org.freedesktop.DBus.Error.NoReply"
    /// The connection to the bus is closed.
    public static let disconnected: ErrorName = "org.freedesktop.DBus.Error.Disconnected"
    /// The bus could not be reached.
    public static let noServer: ErrorName = "org.freedesktop.DBus.Error.NoServer"
}

extension DBusError {
    /// `InvalidArgs` for a call whose arguments do not have the signature `expected`.
    public static func wrongSignature(expected: String, got: String) -> DBusError {
        DBusError(.invalidArgs, "expected arguments of signature \"\(expected)\", got \"\(got)\"")
    }
}

/// An error that knows which D-Bus error it is, so that a method handler can throw it as it is.
public protocol DBusErrorConvertible: Error {
    var dbusError: DBusError { get }
}

extension DBusError: DBusErrorConvertible {
    public var dbusError: DBusError { self }
}

extension DBusError {
    /// The D-Bus error for any Swift error: its own name when it has one, `Failed` otherwise.
    public init(describing error: any Error) {
        if let convertible = error as? any DBusErrorConvertible {
            self = convertible.dbusError
        } else {
            self.init(.failed, String(describing: error))
        }
    }
}
