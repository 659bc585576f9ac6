internal import DBusKit
internal import NetworkActivityInterface

extension NetworkActivityClient {
    /// Every active activity with all the service knows of it (`GetActivities`): progress, who may stop it, and the
    /// owner's process where the bus tells it, ordered by id, the system service's last.
    public func activities() async throws(NetworkActivityError) -> [ActivityStatus] {
        try await activities(autoStart: true)
    }

    /// `GetActivities`; with `autoStart` off, a service that is not running is not started to answer.
    func activities(autoStart: Bool) async throws(NetworkActivityError) -> [ActivityStatus] {
        let message = Message.serviceCall("GetActivities")
        message.autoStart = autoStart
        return try await call(message) { reply throws(DBusError) in
            try reply.read([ActivityDetails].self).map { ActivityStatus($0) }
        }
    }

    /// The ids of the activities whose programs will stop them when asked, which ``requestCancel(_:)`` may ask
    /// to. A service that is not running is not started for this: for shell completion.
    public func cancellableActivityIDs() async throws(NetworkActivityError) -> [ActivityID] {
        try await activities(autoStart: false).filter { $0.isCancellable && !$0.isSystem }.map(\.id)
    }

    /// Says how far the activity `id` is, 0 to 100 (`SetProgress`). Any program of the activity's Unix user may.
    ///
    /// - Throws: ``NetworkActivityError/invalidArguments(message:)`` past 100,
    ///   ``NetworkActivityError/notOwner(message:)`` for another user's activity.
    public func setProgress(_ id: ActivityID, percent: UInt32) async throws(NetworkActivityError) {
        try await call(.serviceCall("SetProgress") { $0.append(id.rawValue); $0.append(percent) }) { _ throws(DBusError) in }
    }

    /// Says how many bytes the activity `id` has moved, and of how many when `total` is given (`SetTransfer`); the
    /// service derives the percent and the rate from it.
    ///
    /// - Throws: ``NetworkActivityError/invalidArguments(message:)`` when `done` is more than `total`.
    public func setTransfer(_ id: ActivityID, done: UInt64, total: UInt64? = nil) async throws(NetworkActivityError) {
        try await call(.serviceCall("SetTransfer") { arguments in
            arguments.append(id.rawValue)
            arguments.append(done)
            arguments.append(total ?? 0)
        }) { _ throws(DBusError) in }
    }

    /// Asks the program that runs the activity `id` to stop it (`RequestCancel`); the program decides, and ends it
    /// when it has stopped.
    ///
    /// - Throws: ``NetworkActivityError/notCancellable(message:)`` when the program has not said it would stop,
    ///   ``NetworkActivityError/notOwner(message:)`` for another user's activity.
    public func requestCancel(_ id: ActivityID) async throws(NetworkActivityError) {
        try await call(.serviceCall("RequestCancel") { $0.append(id.rawValue) }) { _ throws(DBusError) in }
    }

    /// Makes this client the one asked to stop the activity `id`, and `onRequest` what it does when asked, on the
    /// client's own thread (`SetCancellable`). The handler is dropped when the activity ends through this client.
    func makeCancellable(_ id: ActivityID, onRequest: @escaping @Sendable () -> Void) async throws(NetworkActivityError) {
        cancelRequests.add(id, handler: onRequest, on: connection)
        do throws(NetworkActivityError) {
            try await call(.serviceCall("SetCancellable") { $0.append(id.rawValue); $0.append(true) }) {
                _ throws(DBusError) in
            }
        } catch {
            cancelRequests.remove(id)
            throw error
        }
    }
}
