internal import DBusKit
internal import NetworkActivityInterface
import Synchronization

extension NetworkActivityClient {
    /// The indicator's state now and after every change, for panel widgets and tray icons.
    ///
    /// The first element is the current state; each change follows once, in order. The state is read again
    /// whenever the service announces a change (`PropertiesChanged`) or comes onto or leaves the bus
    /// (`NameOwnerChanged`); while it is not running the state is ``IndicatorState/serviceStopped``, and the stream
    /// goes on across stops and restarts. It never starts the service. The stream finishes when the consuming task
    /// is cancelled, or when the bus itself goes away.
    ///
    /// - Parameter readsActivities: whether each state carries the activities (labels and start times), at the
    ///   cost of one more call per change.
    public func indicatorStates(readsActivities: Bool = true) -> AsyncStream<IndicatorState> {
        let (states, output) = AsyncStream.makeStream(of: IndicatorState.self)
        // One pending "read again" is enough: a read started after it sees every change before it.
        let (triggers, trigger) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let registration = stateTriggers.add(trigger, on: connection)
        let reader = Task {
            var last: IndicatorState?
            for await _ in triggers {
                let state: IndicatorState
                do throws(NetworkActivityError) {
                    state = try await readIndicatorState(readsActivities: readsActivities)
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

    private func readIndicatorState(readsActivities: Bool) async throws(NetworkActivityError) -> IndicatorState {
        let properties = try await readProperties(autoStart: false)
        let activities = readsActivities ? try await listActivities(autoStart: false).map { ActivityStatus($0) } : []
        return IndicatorState(isServiceRunning: true, isVisible: properties.isVisible,
                              activeCount: properties.activeCount, activities: activities)
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
