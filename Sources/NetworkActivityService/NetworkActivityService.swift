import DBusKit
#if canImport(Glibc)
import Glibc
#endif
import Logging
import NetworkActivity
import NetworkActivityInterface

/// The running service: one connection, one event loop, and the domain state, all on one thread.
public final class NetworkActivityService {
    let connection: Connection
    let logger: Logger
    var coordinator: ActivityCoordinator
    private let configuration: ServiceConfiguration
    private let loop: EventLoop
    private let signals: TerminationSignals
    private let clock = SystemClock()
    /// The object at `ServiceNames.objectPath`, served from `NetworkActivityService.interface`.
    private var object: ServedObject!
    /// Each distinct change signal, built once and sent as copies.
    private var changeSignals = SignalCache<ActivityNotification>()
    private var memory = MemoryReturn()
    /// Unix users of the callers that have used timed activities; unique names are never reused, so an entry
    /// holds until its name leaves the bus.
    private var unixUsers: [String: UInt32] = [:]
    /// The Unix user the service runs as.
    let ownUser = UInt32(geteuid())
    private var exitStatus: Int32 = 0

    /// Connects and takes the bus name. In this order, as sd-bus and mako do: the object is registered and
    /// `NameOwnerChanged` subscribed before the name is requested, so no call can arrive before the service
    /// can answer it, and no departure can be missed.
    public init(configuration: ServiceConfiguration, logger: Logger) throws(ServiceError) {
        self.configuration = configuration
        self.logger = logger
        signals = try TerminationSignals()
        coordinator = ActivityCoordinator(limits: configuration.limits, delays: configuration.delays, clock: clock)
        do {
            connection = try Connection(bus: configuration.bus)
        } catch {
            throw .bus(error)
        }
        loop = EventLoop(connection: connection)
        do {
            try start()
        } catch {
            throw .bus(error)
        }
        try takeName()
        logger.info("owning \(ServiceNames.busName) as \(connection.uniqueName)")
    }

    private func start() throws(DBusError) {
        // Signals of a change go out before the reply to the call that caused it, so panels wait behind nothing.
        object = try connection.serve(self, at: ServiceNames.objectPath, interfaces: [Self.interface],
                                      introspectionXML: Self.introspectionXML) { $0.publishNotifications() }
        try connection.subscribe(to: MatchRule(
            sender: Connection.busDriverName, path: Connection.busDriverPath,
            interface: Connection.busDriverInterface, member: "NameOwnerChanged", arguments: [2: ""])
        ) { [unowned self] signal in nameVanished(signal) }
        try connection.subscribe(to: MatchRule(
            sender: Connection.busDriverName, interface: Connection.busDriverInterface, member: "NameLost",
            arguments: [0: ServiceNames.busName.rawValue])
        ) { [unowned self] _ in
            logger.notice("another instance took \(ServiceNames.busName) over; stopping")
            loop.stop()
        }
        loop.watch(fileDescriptor: signals.fileDescriptor) { [unowned self] in
            guard let signal = signals.take() else { return }
            logger.info("stopping on signal \(signal)")
            loop.stop()
        }
        loop.endOfTurn = { [unowned self] in endOfTurn() }
    }

    private func takeName() throws(ServiceError) {
        var flags: NameRequestFlags = [.allowReplacement, .doNotQueue]
        if configuration.replace { flags.insert(.replaceExisting) }
        let result: NameRequestResult
        do {
            result = try connection.requestName(ServiceNames.busName, flags: flags)
        } catch {
            throw .bus(error)
        }
        guard result == .primaryOwner || result == .alreadyOwner else {
            let owner = (try? connection.nameOwner(of: ServiceNames.busName)) ?? "another connection"
            let processID = (try? BusName(owner)).flatMap { try? connection.processID(of: $0) }
            throw .nameTaken(owner: owner, processID: processID)
        }
    }

    /// Serves until SIGTERM or SIGINT (status 0) or until the bus connection is lost (status 1).
    public func run() -> Int32 {
        do {
            try loop.run()
        } catch {
            logger.error("lost the connection to the bus: \(error.message)")
            return 1
        }
        shutDown()
        return exitStatus
    }

    /// Leaves no widget showing: the final `VisibilityChanged(false)` goes out while the name is still ours, so
    /// that listeners matching on the name receive it.
    private func shutDown() {
        coordinator.shutDown()
        publishNotifications()
        try? connection.releaseName(ServiceNames.busName)
        connection.flush()
    }

    private func endOfTurn() -> Duration? {
        let deadline = coordinator.endTurn()
        publishNotifications()
        memory.noteActivities(Int(coordinator.activeCount))
        return deadline.map { clock.monotonicNow().duration(to: $0) }
    }

    func publishNotifications() {
        for notification in coordinator.takeNotifications() {
            switch notification {
            case .propertiesChanged(let visible, let activeCount):
                connection.send(changeSignals.signal(for: notification) {
                    var changes: [ChangedProperty] = []
                    if let visible { changes.append(ChangedProperty(ServiceNames.Property.visible, visible)) }
                    if let activeCount {
                        changes.append(ChangedProperty(ServiceNames.Property.activeCount, activeCount))
                    }
                    return object.makePropertiesChanged(of: ServiceNames.interface, changes)
                })
            case .visibilityChanged(let visible):
                connection.send(changeSignals.signal(for: notification) {
                    let signal = object.makeSignal(ServiceNames.visibilityChanged, of: ServiceNames.interface)
                    signal.append(visible)
                    return signal
                })
            }
        }
    }

    /// `NameOwnerChanged(name, old, "")`: a name left the bus. For a unique name, its caller is gone.
    private func nameVanished(_ signal: Message) {
        var arguments = signal.arguments()
        guard let name = try? arguments.read(String.self), name.hasPrefix(":") else { return }
        unixUsers[name] = nil
        let ended = coordinator.callerLeft(name)
        if ended > 0 {
            logger.debug("\(name) left the bus; ended its \(ended) activities")
            publishNotifications()
        }
    }

    /// The Unix user behind a caller, asked of the bus once per caller.
    func unixUser(of caller: String) -> UInt32? {
        if let user = unixUsers[caller] { return user }
        guard let name = try? BusName(caller), let user = try? connection.unixUser(of: name) else { return nil }
        unixUsers[caller] = user
        return user
    }
}
