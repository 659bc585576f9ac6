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
    /// Apps' measured traffic: counted by the system service, shown by the session's.
    public var traffic: TrafficOptions
    /// Whether this service counts traffic in the kernel: the system service, with `--traffic`.
    public var countsTraffic: Bool { traffic.isOn && bus == .system }
}

/// `--traffic` and the options beside it.
public struct TrafficOptions: Sendable, Equatable {
    /// The system service counts; a session service shows what it counts, and starts it for that.
    public var isOn = false
    /// Bytes a second (received and sent) from which an app counts.
    public var threshold: UInt64 = 32_768
    /// Whether packets on `lo` count: only for tests and for a machine whose "network" is local.
    public var countsLoopback = false
    public var choice = TrafficChoice()
    /// Where the system service keeps the data each app used (`usage`); nil keeps it in memory alone.
    public var usageDirectory: String?
    /// Days of data usage kept, today's included.
    public var usageDays = DataUsage.defaultKeptDays
}

/// The apps a person wants to see the traffic of: `--traffic-apps` (only these) and `--traffic-ignore` (never
/// these), by application id.
public struct TrafficChoice: Sendable, Equatable {
    public var only: [String]?
    public var ignored: [String] = []

    func shows(_ application: String?) -> Bool {
        guard let application else { return only == nil }
        return !ignored.contains(application) && only.map { $0.contains(application) } != false
    }
}

/// What `Traffic` says: whether measured traffic shows, and if not, why.
enum TrafficState: Equatable {
    case counting
    /// Not asked for, and why.
    case off(String)
    /// Asked for, and why it does not count.
    case unavailable(String)

    /// The `Traffic` property.
    var word: TrafficCounting {
        switch self {
        case .counting: .counting
        case .off: .off
        case .unavailable: .unavailable
        }
    }

    /// The answer to a call of the data usage or pausing where no traffic is counted, saying why.
    var notCountingError: DBusError {
        DBusError(.notCountingTraffic, reason.isEmpty ? "the system service does not count apps' traffic" : reason)
    }

    /// The `TrafficReason` property: empty while it counts.
    var reason: String {
        switch self {
        case .counting: ""
        case .off(let reason), .unavailable(let reason): reason
        }
    }
}

/// Where the service keeps its activities across restarts (`StateKeeper`), or why it keeps them nowhere.
public enum StateLocation: Sendable, Equatable {
    case directory(String)
    case nowhere(reason: String)
}
