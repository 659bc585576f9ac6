// SPDX-License-Identifier: Apache-2.0
import DBusKit
public import NetworkActivity
import NetworkActivityInterface

/// Everything the daemon's flags decide.
public struct ServiceConfiguration: Sendable {
    public var bus: Connection.Bus
    public var delays: VisibilityDelays
    public var limits: ActivityLimits
    /// Take the name over from a running instance that allows it.
    public var replace: Bool
    /// Count the system bus's service's activities too (`SystemServiceFollower`): for a service on the session
    /// bus.
    public var followsSystemService: Bool
    /// Where the activities are kept across restarts.
    public var state: StateLocation
    /// The programs whose announcements of their work are followed as activities: for a service on the session
    /// bus.
    public var sources: Set<ActivitySource>
    /// The apps whose progress on their launcher is followed (`LauncherEntries`), by desktop file id.
    public var launcherApplications: [String]
    /// How many finished activities are kept per Unix user (`ActivityHistory`); 0 keeps none.
    public var historyLimit: Int
}

/// Where the service keeps its activities across restarts (`StateKeeper`), or why it keeps them nowhere.
public enum StateLocation: Sendable, Equatable {
    case directory(String)
    case nowhere(reason: String)
}
