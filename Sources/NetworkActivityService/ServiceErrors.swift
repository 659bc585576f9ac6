import DBusKit
import NetworkActivity

/// The service's own error names, all in one place.
extension ErrorName {
    /// `End` of an id that is not active (never was, or has already ended).
    public static let unknownActivity: ErrorName = "org.example.NetworkActivity.Error.UnknownActivity"
    /// `End` of an activity that belongs to another caller.
    public static let notOwner: ErrorName = "org.example.NetworkActivity.Error.NotOwner"
    /// A `Begin` past `--max-per-caller` or `--max-total`.
    public static let limitExceeded: ErrorName = "org.example.NetworkActivity.Error.LimitExceeded"
}

extension ActivityError: DBusErrorConvertible {
    public var dbusError: DBusError {
        switch self {
        case .unknownActivity: DBusError(.unknownActivity, description)
        case .notOwner: DBusError(.notOwner, description)
        case .callerLimitExceeded, .totalLimitExceeded, .idsExhausted: DBusError(.limitExceeded, description)
        case .invalidLabel, .invalidTimeout: DBusError(.invalidArgs, description)
        }
    }
}
