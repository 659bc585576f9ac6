// SPDX-License-Identifier: Apache-2.0
import DBusKit
#if canImport(Glibc)
import Glibc
#endif
import ProgramSupport
import NetworkActivity
import NetworkActivityInterface

/// The running service: one connection, one event loop, and the domain state, all on one thread.
public final class NetworkActivityService {
    private let connection: Connection
    private let logger: Logger
    private let configuration: ServiceConfiguration
    private let loop: EventLoop
    private let signals: TerminationSignals
    private let clock = SystemClock()
    /// The object at `ServiceNames.objectPath`, with the domain's state.
    private let endpoint: ActivityEndpoint
    /// The system service's objects of the data usage, pausing, speed limits and data plans, which a session passes
    /// on (`relay`).
    private var usage: UsageEndpoint?
    private var pause: PauseEndpoint?
    private var limits: LimitsEndpoint?
    private var plans: PlansEndpoint?
    private var relay: SystemServiceRelay?
    /// The kernel's counts, where this service keeps them.
    private var traffic: TrafficSource?
    private var memory = MemoryReturn()
    private var systemService: SystemServiceFollower?
    /// The sources followed, each through its adapter (`SourceAdapters`).
    private var adapters: [ActivitySource: any SourceAdapter] = [:]
    /// Those of them that read at the end of the loop's turns.
    private var readingAdapters: [any SourceAdapter] = []
    /// Turns of the loop that end in a sleep before the system service and the sources are followed: one, when
    /// any is to be.
    private var sleepsBeforeFollowingOthers: Int?
    private var exitStatus: Int32 = 0
    /// Set when another instance took the name over: it takes the activities over too.
    private var isReplaced = false

    /// Connects and takes the bus name. In this order, as sd-bus and mako do: the object is registered and
    /// `NameOwnerChanged` subscribed before the name is requested, so no call can arrive before the service
    /// can answer it, and no departure can be missed.
    public init(configuration: ServiceConfiguration, logger: Logger) throws(ServiceError) {
        self.configuration = configuration
        self.logger = logger
        do {
            signals = try TerminationSignals()
        } catch {
            throw .system(error.message)
        }
        let connection: Connection
        do {
            connection = try Connection(bus: configuration.bus)
        } catch {
            throw .bus(error)
        }
        self.connection = connection
        // The connection's router holds the endpoint's served object, whose `send` must not hold the connection.
        endpoint = ActivityEndpoint(
            coordinator: ActivityCoordinator(limits: configuration.limits, delays: configuration.delays, clock: clock,
                                             idCipher: .random()),
            logger: logger, ownUser: UInt32(geteuid()),
            send: { [unowned connection] message in connection.send(message) },
            lookUpCredentials: { [unowned connection] name in try? connection.credentials(of: name) },
            historyLimit: configuration.historyLimit)
        endpoint.trafficChoice = configuration.traffic.choice
        if configuration.traffic.isOn, !configuration.countsTraffic {
            endpoint.trafficState = configuration.followsSystemService ? .unavailable("the system service is not running")
                : .unavailable("--no-system: the system service, which counts it, is not followed")
        }
        let send: (Message) -> Void = { [unowned connection] message in connection.send(message) }
        let notCounting: () -> DBusError = { [unowned endpoint] in endpoint.trafficState.notCountingError }
        if configuration.bus == .system {
            usage = UsageEndpoint(callers: endpoint.callers, ownUser: endpoint.ownUser, logger: logger, send: send,
                                  notCounting: notCounting)
            pause = PauseEndpoint(activities: endpoint, send: send, notCounting: notCounting)
            limits = LimitsEndpoint(callers: endpoint.callers, send: send, notCounting: notCounting)
            plans = PlansEndpoint(callers: endpoint.callers, polkit: PolkitCheck(connection: connection), send: send,
                                  notCounting: notCounting)
        } else {
            relay = SystemServiceRelay(callers: endpoint.callers, send: send, notCounting: notCounting)
        }
        loop = EventLoop(connection: connection)
        do {
            try start()
        } catch {
            throw .bus(error)
        }
        try takeName()
        logger.info("owning \(ServiceNames.busName) as \(connection.uniqueName)")
        restoreState()
        if configuration.countsTraffic { startCountingTraffic() }
        if configuration.followsSystemService || !configuration.sources.isEmpty { sleepsBeforeFollowingOthers = 1 }
    }

    /// After the loop's first sleep, which lets the callers that the bus woke when the name was taken (those D-Bus
    /// activation held, the waiters for the name) run first on a busy CPU, and answers what they sent first: they
    /// wait for no system bus. The system service and the sources on the system bus share one connection to it.
    private func followOtherPrograms() {
        let followed = ActivitySource.allCases.filter(configuration.sources.contains)
        for source in followed {
            guard let adapter = SourceAdapters.all[source], adapter.bus == .session else { continue }
            follow(source, with: adapter, on: connection)
        }
        let onSystemBus = followed.filter { SourceAdapters.all[$0]?.bus == .system }
        guard configuration.followsSystemService || !onSystemBus.isEmpty else { return }
        let system: Connection
        do {
            system = try Connection(bus: .system)
        } catch {
            logger.info("no system bus (\(error.message)); following nothing there")
            return
        }
        loop.add(system) { [unowned self] in
            logger.notice("lost the system bus; following nothing there any more")
            systemService?.systemBusLost()
            for adapter in adapters.values where type(of: adapter).bus == .system { adapter.busLost() }
        }
        if configuration.followsSystemService {
            do {
                systemService = try SystemServiceFollower(
                    connection: system, logger: logger, startsService: configuration.traffic.isOn,
                    onTraffic: { [unowned self] state in trafficOfSystemService(state) }
                ) { [unowned endpoint] records in endpoint.followSystemActivities(records) }
                relay?.systemService = systemService
                systemService?.onRelayedSignal = { [unowned self] signal in relay?.systemSignal(signal) }
            } catch {
                logger.warning("following no system service: \(error.message)")
            }
        }
        for source in onSystemBus { follow(source, with: SourceAdapters.all[source]!, on: system) }
    }

    /// Attaches the kernel's counting (`TrafficSource`), which answers the data usage, pauses, limits and plans; without it,
    /// says once what is missing, and serves on.
    private func startCountingTraffic() {
        let traffic: TrafficSource
        do {
            traffic = try TrafficSource(connection: connection, work: endpoint, configuration: configuration,
                                        clock: clock)
        } catch {
            logger.warning("not counting apps' traffic: \(error.message)")
            endpoint.trafficState = .unavailable(error.message)
            return
        }
        self.traffic = traffic
        add(traffic, as: .traffic)
        endpoint.trafficState = .counting
        endpoint.notesReaders = true
        usage?.dataUsage = traffic.usage
        pause?.pausing = traffic.pausing
        limits?.limiting = traffic.limits
        plans?.planning = traffic.plans
        traffic.plans.onChange = { [weak plans] in plans?.plansChanged() }
        traffic.usage.onChange = { [unowned self] everyone, users in
            usage?.usageChanged(everyone: everyone, users: users)
        }
    }

    /// The system service's `Traffic`, each time it appears (nil when it left): a session with `--traffic` shows
    /// what it counts.
    private func trafficOfSystemService(_ state: String?) {
        guard configuration.traffic.isOn else { return }
        endpoint.trafficState = switch state.flatMap(TrafficCounting.init(rawValue:)) {
        case .counting: .counting
        case .none where state == nil: .unavailable("the system service is not running")
        default: .unavailable("the system service does not count apps' traffic (netactivity status --system says why)")
        }
    }

    private func follow(_ source: ActivitySource, with adapter: any SourceAdapter.Type, on bus: Connection) {
        do {
            add(try adapter.init(connection: bus, work: endpoint, configuration: configuration, clock: clock),
                as: source)
        } catch {
            logger.warning("following no \(source.rawValue): \(error.message)")
        }
    }

    /// Wires a followed source into the loop.
    private func add(_ followed: any SourceAdapter, as source: ActivitySource) {
        adapters[source] = followed
        if type(of: followed).readsAtEndOfTurn { readingAdapters.append(followed) }
        if let descriptor = followed.wakeUpDescriptor {
            loop.watch(fileDescriptor: descriptor) { [unowned followed] in followed.wokeUp() }
        }
    }

    private func start() throws(DBusError) {
        try connection.register(endpoint.object)
        for object in [usage?.object, pause?.object, limits?.object, plans?.object].compactMap({ $0 }) + (relay?.objects ?? []) {
            try connection.register(object)
        }
        try connection.subscribe(to: MatchRule(
            sender: Connection.busDriverName, path: Connection.busDriverPath,
            interface: Connection.busDriverInterface, member: "NameOwnerChanged", arguments: [2: ""])
        ) { [unowned self] signal in nameVanished(signal) }
        connection.onLoss(of: ServiceNames.busName) { [unowned self] in
            logger.notice("another instance took \(ServiceNames.busName) over; handing the activities over to it")
            isReplaced = true
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
    /// that listeners matching on the name receive it. The state file keeps the activities for the next instance.
    /// When another instance has taken over, it shows them: nothing is announced, so no widget blinks.
    private func shutDown() {
        endpoint.saveChanges()
        // What the kernel counted since the last take, which its map forgets with this process.
        traffic?.takeUsageNow()
        if !isReplaced {
            endpoint.shutDown()
            try? connection.releaseName(ServiceNames.busName)
        }
        connection.flush()
        endpoint.stateKeeper = nil
    }

    /// Takes over the activities that the last instance saved, and begins a fresh state file with them. Runs once
    /// the name is owned, so that an instance that did not get it touches nothing; the calls that arrive meanwhile
    /// wait until it is done. An instance being replaced holds the directory's lock until it has saved its last
    /// and gone, so this one reads what it left.
    private func restoreState() {
        let directory: String
        switch configuration.state {
        case .nowhere(let reason):
            logger.info("keeping no activities across restarts: \(reason)")
            return
        case .directory(let path):
            directory = path
        }
        let busID: String
        do {
            busID = try connection.busID()
        } catch {
            logger.warning("keeping no activities across restarts: the bus did not answer (\(error.message))")
            return
        }
        guard let (keeper, saved) = StateKeeper.open(directory, busID: busID, limits: configuration.limits,
                                                     historyLimit: configuration.historyLimit, logger: logger)
        else { return }
        let sameBus = saved.busID == busID
        // Who is on the bus matters only for what was saved on this bus: one call answers for every owner, and a
        // start with nothing to take over makes none.
        var namesOnBus: Set<String>?
        if sameBus, !saved.activities.isEmpty {
            namesOnBus = (try? connection.names()).map(Set.init)
            if namesOnBus == nil { logger.warning("the bus did not list its names; taking over timed activities only") }
        }
        let restored = endpoint.coordinator.restore(saved, isOnBus: namesOnBus.map { names in { names.contains($0) } })
        endpoint.coordinator.restoreHistory(saved.history)
        endpoint.stateKeeper = keeper
        guard keeper.begin(with: endpoint.coordinator.tracker, history: endpoint.coordinator.history) else {
            endpoint.stateKeeper = nil
            return
        }
        let notTaken = saved.activities.count - restored
        logger.info("keeping activities across restarts in \(directory); took over \(restored) saved there"
            + (saved.activities.isEmpty || sameBus ? "" : " on an earlier bus")
            + (notTaken > 0 ? ", not \(notTaken) whose owners had left or deadlines passed" : ""))
    }

    private func endOfTurn() -> Duration? {
        // Before the endpoint's end of turn, which announces what the sources changed.
        var untilSourcesWant: Duration?
        for adapter in readingAdapters {
            if let wait = adapter.endOfTurn() { untilSourcesWant = min(untilSourcesWant ?? wait, wait) }
        }
        let turn = endpoint.endTurn()
        memory.noteActivities(Int(turn.activeCount))
        var untilDeadline = turn.nextDeadline.map { turn.now.duration(to: $0) }
        if let untilSourcesWant { untilDeadline = min(untilDeadline ?? untilSourcesWant, untilSourcesWant) }
        guard let sleeps = sleepsBeforeFollowingOthers else { return untilDeadline }
        guard sleeps == 0 else {
            sleepsBeforeFollowingOthers = sleeps - 1
            return min(untilDeadline ?? .milliseconds(1), .milliseconds(1))
        }
        sleepsBeforeFollowingOthers = nil
        followOtherPrograms()
        return untilDeadline
    }

    /// `NameOwnerChanged(name, old, "")`: a name left the bus. For a unique name, its caller is gone.
    private func nameVanished(_ signal: Message) {
        var arguments = signal.arguments()
        guard let name = try? arguments.read(String.self), name.hasPrefix(":") else { return }
        for adapter in adapters.values where type(of: adapter).bus == .session {
            adapter.connectionLeft(name)
        }
        usage?.callerLeft(name)
        let ended = endpoint.callerLeft(name)
        if ended > 0 { logger.debug("\(name) left the bus; ended its \(ended) activities") }
    }
}
