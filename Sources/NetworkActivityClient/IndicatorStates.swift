internal import DBusKit
internal import NetworkActivityInterface
import Synchronization

extension NetworkActivityClient {
    /// The indicator's state now and after every change, for panel widgets and tray icons.
    ///
    /// The first element is the current state; each change follows once, in order. `Visible` and `ActiveCount` are
    /// read again whenever the service announces a change of them (`PropertiesChanged`) or comes onto or leaves the
    /// bus (`NameOwnerChanged`); the activities, with their progress, are read once and then followed through
    /// `ActivitiesChanged` (``activityUpdates()``). While the service is not running the state is
    /// ``IndicatorState/serviceStopped``, and the stream goes on across stops and restarts. It never starts the
    /// service. The stream finishes when the consuming task is cancelled, or when the bus itself goes away.
    ///
    /// - Parameter readsActivities: whether each state carries the activities (labels, start times, progress),
    ///   at the cost of following one more signal.
    public func indicatorStates(readsActivities: Bool = true) -> AsyncStream<IndicatorState> {
        guard readsActivities else { return propertyStates() }
        enum Part: Sendable {
            case properties(IndicatorState)
            case activities([ActivityStatus])
            /// A state held back since its count and its activities disagreed is due.
            case heldStateDue
            case finished
        }
        let (parts, partInput) = AsyncStream.makeStream(of: Part.self)
        let properties = Task {
            for await state in propertyStates() { partInput.yield(.properties(state)) }
            partInput.yield(.finished)
        }
        let activities = Task {
            for await update in activityUpdates() { partInput.yield(.activities(update.activities)) }
        }
        let (states, output) = AsyncStream.makeStream(of: IndicatorState.self)
        let merger = Task {
            var properties: IndicatorState?
            var listed: [ActivityStatus]?
            var lastYielded: IndicatorState?
            var isHolding = false
            loop: for await part in parts {
                var isDue = false
                switch part {
                case .properties(let state): properties = state
                case .activities(let activities): listed = activities
                case .heldStateDue: isDue = isHolding
                case .finished: break loop
                }
                // The first state waits for the first word of both, so that it carries the activities.
                guard var next = properties, let listed else { continue }
                // Activities heard from a service that has since stopped are gone with it.
                next.activities = next.isServiceRunning ? listed : []
                // A change reaches the two signals a moment apart: the state between, with the count new and the
                // activities not yet or the other way round, is held back until the other comes, so that a
                // widget draws the change once; for at most `heldStateLimit`, in case they never agree.
                let agrees = !next.isServiceRunning || Int(next.activeCount) == listed.count
                if !agrees, !isDue {
                    if !isHolding {
                        isHolding = true
                        Task {
                            try? await Task.sleep(for: Self.heldStateLimit)
                            partInput.yield(.heldStateDue)
                        }
                    }
                    continue
                }
                isHolding = false
                guard next != lastYielded else { continue }
                lastYielded = next
                output.yield(next)
            }
            output.finish()
        }
        output.onTermination = { _ in
            merger.cancel()
            properties.cancel()
            activities.cancel()
            partInput.finish()
        }
        return states
    }

    /// How long ``indicatorStates(readsActivities:)`` holds back a state whose `ActiveCount` and activities
    /// disagree: the service sends both signals of a change within 100 ms.
    static let heldStateLimit: Duration = .milliseconds(250)

    /// The indicator's `Visible` and `ActiveCount`, read again at every `PropertiesChanged` and change of owner,
    /// without the activities.
    private func propertyStates() -> AsyncStream<IndicatorState> {
        let (states, output) = AsyncStream.makeStream(of: IndicatorState.self)
        // One pending "read again" is enough: a read started after it sees every change before it.
        let (triggers, trigger) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let registration = stateTriggers.add(trigger, on: connection)
        let reader = Task {
            var last: IndicatorState?
            for await _ in triggers {
                let state: IndicatorState
                do throws(NetworkActivityError) {
                    let properties = try await readProperties(autoStart: false)
                    state = IndicatorState(isServiceRunning: true, isVisible: properties.isVisible,
                                           activeCount: properties.activeCount, activities: [])
                } catch .disconnected {
                    break
                } catch .cancelled {
                    break
                } catch {
                    state = .serviceStopped
                }
                guard state != last else { continue }
                last = state
                output.yield(state)
            }
            output.finish()
        }
        output.onTermination = { [stateTriggers] _ in
            reader.cancel()
            stateTriggers.remove(registration)
            trigger.finish()
        }
        return states
    }
}

/// Tells every ``NetworkActivityClient/indicatorStates(readsActivities:)`` stream of a client when to read the state
/// again, from one subscription to the service's signals that the client makes on first use and keeps.
final class StateTriggers: Sendable {
    private struct Registry {
        var isSubscribed = false
        var nextID = 0
        var triggers: [Int: AsyncStream<Void>.Continuation] = [:]
    }

    private let registry = Mutex(Registry())

    /// Adds a stream's trigger, which fires once at once and then at every signal; returns what `remove` takes.
    func add(_ trigger: AsyncStream<Void>.Continuation, on connection: SharedConnection) -> Int {
        let (id, mustSubscribe) = registry.withLock { registry in
            defer { registry.nextID += 1 }
            registry.triggers[registry.nextID] = trigger
            defer { registry.isSubscribed = true }
            return (registry.nextID, !registry.isSubscribed)
        }
        if mustSubscribe {
            connection.onLoop { [weak self] connection in
                do throws(DBusError) {
                    try connection.followOwner(of: ServiceNames.busName) { _ in self?.fireAll() }
                    try connection.subscribe(to: MatchRule(
                        sender: ServiceNames.busName, path: ServiceNames.objectPath,
                        interface: StandardInterface.properties, member: "PropertiesChanged",
                        arguments: [0: ServiceNames.interface.rawValue])
                    ) { _ in
                        // The signal's values are not used: one queued during a read may be older than what the
                        // read returned, while a fresh read is always current.
                        self?.fireAll()
                    }
                } catch {
                    // Only a lost bus refuses a match rule; the streams then end at their first read.
                }
            }
        }
        // After the subscription, which the loop makes first: no change can fall between the two.
        connection.onLoop { _ in trigger.yield() }
        return id
    }

    func remove(_ id: Int) {
        _ = registry.withLock { $0.triggers.removeValue(forKey: id) }
    }

    func fireAll() {
        registry.withLock { registry in
            for trigger in registry.triggers.values { trigger.yield() }
        }
    }
}
