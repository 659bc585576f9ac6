// SPDX-License-Identifier: Apache-2.0
internal import DBusKit
import ProgramSupport

extension NetworkActivityClient {
    /// The indicator's state now and after every change, for panel widgets and tray icons.
    ///
    /// The first element is the current state; each change follows once, in order. `Visible` and `ActiveCount` are
    /// read when the service comes onto the bus and then followed through `PropertiesChanged`; the activities, with
    /// their progress, are read once and then followed through `ActivitiesChanged` (as ``activityUpdates()``). A
    /// change that reaches the two signals a moment apart is told once, when the count and the activities agree.
    /// While the service is not running the state is ``IndicatorState/serviceStopped``, and the stream goes on
    /// across stops and restarts. It never starts the service. The stream finishes when the consuming task is
    /// cancelled, or when the bus itself goes away.
    ///
    /// - Parameter readsActivities: whether each state carries the activities (labels, start times, progress),
    ///   at the cost of following one more signal.
    public func indicatorStates(readsActivities: Bool = true) -> AsyncStream<IndicatorState> {
        let (states, output) = AsyncStream.makeStream(of: IndicatorState.self)
        let holder = LoopBoundHolder<(follower: IndicatorFollower, hook: Int)>()
        let loss = busLossListeners.add { output.finish() }
        connection.onLoop { [connection] loopConnection in
            do throws(DBusError) {
                let follower = try IndicatorFollower(on: loopConnection, readsActivities: readsActivities) {
                    output.yield($0)
                }
                holder.value = (follower, connection.onEachTurnEnd { follower.flush() })
            } catch {
                output.finish()
            }
        }
        output.onTermination = { [connection, busLossListeners] _ in
            busLossListeners.remove(loss)
            connection.onLoop { _ in
                guard let (follower, hook) = holder.value else { return }
                follower.stop()
                connection.removeTurnEndHook(hook)
                holder.value = nil
            }
        }
        return states
    }
}

/// A value made and used on a loop's thread alone, held by what other threads pass around (a stream's
/// termination handler) until they hand it back to that thread.
final class LoopBoundHolder<Value>: @unchecked Sendable {
    var value: Value?
}

/// Finishes the client's streams when its connection to the bus is lost.
final class BusLossListeners: Sendable {
    private struct Registry {
        var nextID = 0
        var listeners: [Int: @Sendable () -> Void] = [:]
    }

    private let registry = Lock(Registry())

    /// Adds `listener`; returns what `remove` takes.
    func add(_ listener: @escaping @Sendable () -> Void) -> Int {
        registry.withLock { registry in
            defer { registry.nextID += 1 }
            registry.listeners[registry.nextID] = listener
            return registry.nextID
        }
    }

    func remove(_ id: Int) {
        _ = registry.withLock { $0.listeners.removeValue(forKey: id) }
    }

    func fireAll() {
        let listeners = registry.withLock { Array($0.listeners.values) }
        for listener in listeners { listener() }
    }
}
