import DBusKit
import NetworkActivityClient
import NetworkActivityInterface

/// Follows the indicator's state for the tray, across restarts of the service, on the connection that serves the
/// tray's own objects: one connection and one thread for both, where the library's `indicatorStates()` would add
/// a second of each.
///
/// It reads the state when it starts and again whenever the service announces a change (`PropertiesChanged`)
/// or comes onto the bus (`NameOwnerChanged`); while the service is not running the state is idle. It never
/// starts the service itself. A monitor runs on the thread that calls `run`, sleeping between changes.
final class IndicatorMonitor {
    /// The monitor's own connection, which `run` serves: a program may export its objects on it too (a tray
    /// icon), to be served by the same loop.
    let connection: Connection
    private let loop: EventLoop
    private let readsActivities: Bool
    private let timeout: Duration
    private var state: IndicatorState?
    private var onChange: (IndicatorState) -> Void = { _ in }

    /// Connects to `bus` and subscribes to the service's signals.
    ///
    /// - Parameters:
    ///   - readsActivities: whether each state carries the activities (labels and start times), at the cost of one
    ///     more call per change.
    ///   - timeout: how long each read waits for the service; one that does not answer counts as not running.
    init(bus: Connection.Bus = .session, readsActivities: Bool = true, timeout: Duration = .seconds(5))
        throws(DBusError)
    {
        connection = try Connection(bus: bus)
        loop = EventLoop(connection: connection)
        self.readsActivities = readsActivities
        self.timeout = timeout
        try connection.followOwner(of: ServiceNames.busName) { [unowned self] newOwner in
            if newOwner.isEmpty { publish(.serviceStopped) } else { refresh() }
        }
        try connection.subscribe(to: MatchRule(
            sender: ServiceNames.busName, path: ServiceNames.objectPath, interface: StandardInterface.properties,
            member: "PropertiesChanged", arguments: [0: ServiceNames.interface.rawValue])
        ) { [unowned self] _ in
            // The signal's values are not used: signals queued during a read may be older than what the read
            // returned, while a fresh read is always current.
            refresh()
        }
    }

    /// Calls `onChange` with the current state at once, then with every new state, on the calling thread,
    /// until `stop()`.
    ///
    /// - Throws: `Disconnected` when the bus itself goes away.
    func run(onChange: @escaping (IndicatorState) -> Void) throws(DBusError) {
        self.onChange = onChange
        state = nil
        refresh()
        try loop.run()
    }

    /// Called on `run`'s thread once per turn of its loop, after the messages that came in: the place for a
    /// program's timers. Returns how long the loop may sleep at most; nil to wait for the bus only.
    var endOfTurn: () -> Duration? {
        get { loop.endOfTurn }
        set { loop.endOfTurn = newValue }
    }

    /// Makes `run` return once the current change has been handled; call it from `onChange`.
    func stop() {
        loop.stop()
    }

    private func refresh() {
        do throws(DBusError) {
            let properties = try connection.readServiceProperties(timeout: timeout, autoStart: false)
            var activities: [ActivityStatus] = []
            if readsActivities {
                var reply = try connection.callService("ListActivities", timeout: timeout, autoStart: false)
                activities = try reply.read([ActivityRecord].self).map(ActivityStatus.init(listed:))
            }
            publish(IndicatorState(isServiceRunning: true, isVisible: properties.isVisible,
                                   activeCount: properties.activeCount, activities: activities))
        } catch {
            // A lost bus ends `run` with its own error; anything else means no service is answering.
            if error.name != .disconnected { publish(.serviceStopped) }
        }
    }

    private func publish(_ newState: IndicatorState) {
        guard newState != state else { return }
        state = newState
        onChange(newState)
    }
}
