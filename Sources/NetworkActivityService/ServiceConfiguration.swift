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
