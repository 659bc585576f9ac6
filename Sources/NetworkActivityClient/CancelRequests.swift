// SPDX-License-Identifier: Apache-2.0
internal import DBusKit
internal import NetworkActivityInterface
import ProgramSupport

/// What a client does when the service passes on a request to stop one of its activities (`CancelRequested`), by
/// activity: one subscription, made on first use and kept, serves them all.
final class CancelRequests: Sendable {
    private struct Registry {
        var isSubscribed = false
        var handlers: [ActivityID: @Sendable () -> Void] = [:]
    }

    private let registry = Lock(Registry())

    /// Runs `handler` on the loop's thread when a request to stop `id` comes, until `remove(id)`.
    func add(_ id: ActivityID, handler: @escaping @Sendable () -> Void, on connection: SharedConnection) {
        let mustSubscribe = registry.withLock { registry in
            registry.handlers[id] = handler
            defer { registry.isSubscribed = true }
            return !registry.isSubscribed
        }
        guard mustSubscribe else { return }
        connection.onLoop { [weak self] connection in
            // The signal comes addressed to this connection alone; the rule only routes it to this handler.
            try? connection.subscribe(to: ServiceMembers.cancelRequested.rule(
                sender: ServiceNames.busName, path: ServiceNames.objectPath)
            ) { [unowned connection] signal in
                // The bus delivers a signal addressed here whoever sent it: only the service's own counts.
                guard let sender = signal.sender, sender == (try? connection.nameOwner(of: ServiceNames.busName))
                else { return }
                guard let id = try? ServiceMembers.cancelRequested.read(signal) else { return }
                self?.fire(ActivityID(rawValue: id))
            }
        }
    }

    /// Forgets the handler of `id`; once this returns, it is not running and will not run.
    func remove(_ id: ActivityID) {
        _ = registry.withLock { $0.handlers.removeValue(forKey: id) }
    }

    /// Runs the handler under the lock, so that `remove` waits for a handler that runs.
    private func fire(_ id: ActivityID) {
        registry.withLock { registry in registry.handlers[id]?() }
    }
}
