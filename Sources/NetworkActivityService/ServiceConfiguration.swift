import DBusKit
import NetworkActivity
import NetworkActivityInterface

/// Everything the daemon's flags decide.
public struct ServiceConfiguration: Sendable {
    public var bus: Connection.Bus
    public var delays: VisibilityDelays
    public var limits: ActivityLimits
    /// Take the name over from a running instance that allows it.
    public var replace: Bool

    public init(
        bus: Connection.Bus = .session, delays: VisibilityDelays = .standard, limits: ActivityLimits = ActivityLimits(),
        replace: Bool = false
    ) {
        self.bus = bus
        self.delays = delays
        self.limits = limits
        self.replace = replace
    }
}

/// Why the service could not start or had to stop.
public enum ServiceError: Error, CustomStringConvertible {
    case bus(DBusError)
    case nameTaken(owner: String, processID: UInt32?)
    case system(String)

    public var description: String {
        switch self {
        case .bus(let error): "D-Bus: \(error)"
        case .nameTaken(let owner, let processID):
            "\(ServiceNames.busName) is already owned by \(owner)"
                + (processID.map { " (pid \($0))" } ?? "")
                + "; stop it, or start with --replace if it allows replacement"
        case .system(let message): message
        }
    }
}
