// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import DBusKit
internal import NetworkActivityInterface

/// What every call of this library throws: the service's refusals, the bus's failures, and cancellation, each a
/// case to switch over. Each carries the message the service or the bus gave; `name` is the D-Bus error's name.
public enum NetworkActivityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `End` of an id that is not active (`…Error.UnknownActivity`).
    case unknownActivity(message: String)
    /// `End` of another connection's activity, or of another user's timed one (`…Error.NotOwner`).
    case notOwner(message: String)
    /// A `begin` past one of the service's limits: per connection, per Unix user, or in all (`…Error.LimitExceeded`).
    case limitExceeded(message: String)
    /// A cancel request for an activity whose program has not said it would stop, or has left the bus
    /// (`…Error.NotCancellable`).
    case notCancellable(message: String)
    /// A call this caller may not make, such as `reset()` from another user (`AccessDenied`).
    case accessDenied(message: String)
    /// A label the service refuses: over 256 bytes, or with control characters. The message says which.
    case invalidLabel(String)
    /// Other arguments the service refuses, such as a timeout out of its range (`InvalidArgs`).
    case invalidArguments(message: String)
    /// No service answers to the name and none can be started, or no bus can be reached; `name` tells which.
    case serviceUnavailable(name: String, message: String)
    /// A sandbox's D-Bus proxy (Flatpak's `xdg-dbus-proxy`) does not let this program talk to the service: the
    /// app lacks the permission `--talk-name=org.example.NetworkActivity`. The message says so, and how to give it.
    case missingPermission(message: String)
    /// The service did not answer within the client's timeout (`NoReply`).
    case noReply(message: String)
    /// The connection to the bus is lost (`Disconnected`); the client can do nothing more.
    case disconnected(message: String)
    /// The task was cancelled while it waited, Swift's `CancellationError` under this library's one error type.
    /// A `begin` cancelled this way leaves no activity behind.
    case cancelled
    /// Any other error the bus or the service gave.
    case other(name: String, message: String)

    /// The D-Bus error's name, such as `org.example.NetworkActivity.Error.UnknownActivity`.
    public var name: String {
        switch self {
        case .unknownActivity: ErrorName.unknownActivity.rawValue
        case .notOwner: ErrorName.notOwner.rawValue
        case .limitExceeded: ErrorName.limitExceeded.rawValue
        case .notCancellable: ErrorName.notCancellable.rawValue
        case .accessDenied: ErrorName.accessDenied.rawValue
        case .invalidLabel, .invalidArguments: ErrorName.invalidArgs.rawValue
        case .noReply: ErrorName.noReply.rawValue
        case .disconnected: ErrorName.disconnected.rawValue
        case .cancelled: "org.example.NetworkActivity.Client.Cancelled"
        case .serviceUnavailable(let name, _), .other(let name, _): name
        case .missingPermission: ErrorName.serviceUnknown.rawValue
        }
    }

    /// What the service or the bus said.
    public var message: String {
        switch self {
        case .unknownActivity(let message), .notOwner(let message), .limitExceeded(let message),
             .notCancellable(let message),
             .accessDenied(let message), .invalidLabel(let message), .invalidArguments(let message),
             .noReply(let message), .disconnected(let message), .serviceUnavailable(_, let message),
             .missingPermission(let message), .other(_, let message):
            message
        case .cancelled: "the task was cancelled"
        }
    }

    /// The name and the message, as `netactivity` prints them; a missing permission's message alone, since the
    /// proxy's `ServiceUnknown` would mislead.
    public var description: String {
        if case .missingPermission(let message) = self { return message }
        return "\(name): \(message)"
    }
}

extension NetworkActivityError {
    /// The case for a D-Bus error.
    init(_ error: DBusError) {
        let message = error.message
        switch error.name {
        case .unknownActivity: self = .unknownActivity(message: message)
        case .notOwner: self = .notOwner(message: message)
        case .limitExceeded: self = .limitExceeded(message: message)
        case .notCancellable: self = .notCancellable(message: message)
        case .accessDenied: self = .accessDenied(message: message)
        case .invalidArgs where message.hasPrefix("the label "): self = .invalidLabel(message)
        case .invalidArgs: self = .invalidArguments(message: message)
        case .noReply: self = .noReply(message: message)
        case .disconnected: self = .disconnected(message: message)
        case .serviceUnknown where message.isEmpty || message == error.name.rawValue:
            // The bus always says why it knows no such service. xdg-dbus-proxy, between a Flatpak app and the
            // bus, answers a call to a name the app may not talk to with a bare ServiceUnknown instead, its
            // message its name.
            self = .missingPermission(message: Self.missingPermissionMessage(appID: Self.sandboxAppID))
        case .serviceUnknown, .nameHasNoOwner, .noServer, .fileNotFound:
            self = .serviceUnavailable(name: error.name.rawValue, message: message)
        case _ where error.name.rawValue.hasPrefix("org.freedesktop.DBus.Error.Spawn."):
            self = .serviceUnavailable(name: error.name.rawValue, message: message)
        default: self = .other(name: error.name.rawValue, message: message)
        }
    }

    init(_ failure: CallFailure) {
        switch failure {
        case .bus(let error): self.init(error)
        case .cancelled: self = .cancelled
        }
    }
}

extension NetworkActivityError {
    /// The Flatpak app this program is, when it runs in Flatpak's sandbox (which sets `FLATPAK_ID`).
    static var sandboxAppID: String? {
        getenv("FLATPAK_ID").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Which permission is missing, and how the user gives it to the app `appID`.
    static func missingPermissionMessage(appID: String?) -> String {
        let permission = "--talk-name=\(ServiceNames.busName)"
        let app = appID.map { "the Flatpak app \($0)" } ?? "this program"
        return "the sandbox does not let \(app) talk to \(ServiceNames.busName): it needs \(permission) (in its "
            + "manifest's finish-args, or: flatpak override --user \(permission) \(appID ?? "APP_ID"))"
    }
}

extension ErrorName {
    /// The bus's address names a socket that does not exist: no bus is running there.
    static let fileNotFound: ErrorName = "org.freedesktop.DBus.Error.FileNotFound"
}
