// SPDX-License-Identifier: Apache-2.0
internal import DBusKit
internal import NetworkActivityInterface

extension NetworkActivityClient {
    /// Every active activity with all the service knows of it (`GetActivities`): progress, who may stop it, and the
    /// owner's process where the bus tells it, in the order they began, the system service's last.
    public func activities() async throws(NetworkActivityError) -> [ActivityStatus] {
        try await activities(autoStart: true)
    }

    /// `GetActivities`; with `autoStart` off, a service that is not running is not started to answer.
    func activities(autoStart: Bool) async throws(NetworkActivityError) -> [ActivityStatus] {
        try await call(autoStart ? .activities : ServiceCall.activities.withoutAutoStart())
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
        _ = try await call(.setProgress(id, percent: percent))
    }

    /// Says how many bytes the activity `id` has moved, and of how many when `total` is given (`SetTransfer`); the
    /// service derives the percent and the rate from it.
    ///
    /// - Throws: ``NetworkActivityError/invalidArguments(message:)`` when `done` is more than `total`.
    public func setTransfer(_ id: ActivityID, done: UInt64, total: UInt64? = nil) async throws(NetworkActivityError) {
        _ = try await call(.setTransfer(id, done: done, total: total))
    }

    /// Asks the program that runs the activity `id` to stop it (`RequestCancel`); the program decides, and ends it
    /// when it has stopped.
    ///
    /// - Throws: ``NetworkActivityError/notCancellable(message:)`` when the program has not said it would stop,
    ///   ``NetworkActivityError/notOwner(message:)`` for another user's activity.
    public func requestCancel(_ id: ActivityID) async throws(NetworkActivityError) {
        _ = try await call(.requestCancel(id))
    }

    /// Holds back the network of the app whose measured traffic is activity `id` (`Pause`): the kernel drops its
    /// packets, but on loopback, until ``resume(_:)``, until the app goes away, or until the system service stops.
    /// Its activity stays, `isPaused` true. Pausing a paused app changes nothing.
    ///
    /// - Throws: ``NetworkActivityError/unknownActivity(message:)`` for an app that is not the caller's user's
    ///   (root may pause any), or a machine's service from anyone but root; `…Error.NotPausable`
    ///   (``NetworkActivityError/other(name:message:)``) for an activity that is not an app's measured traffic.
    public func pause(_ id: ActivityID) async throws(NetworkActivityError) {
        _ = try await call(.setPaused(id, true))
    }

    /// Lets a paused app's packets through again (`Resume`); its TCP connections go on at their next
    /// retransmission. The same rules as ``pause(_:)``.
    public func resume(_ id: ActivityID) async throws(NetworkActivityError) {
        _ = try await call(.setPaused(id, false))
    }

    /// Makes this client the one asked to stop the activity `id`, and `onRequest` what it does when asked, on the
    /// client's own thread (`SetCancellable`). The handler is dropped when the activity ends through this client.
    func makeCancellable(_ id: ActivityID, onRequest: @escaping @Sendable () -> Void) async throws(NetworkActivityError) {
        cancelRequests.add(id, handler: onRequest, on: connection)
        do throws(NetworkActivityError) {
            _ = try await call(.setCancellable(id))
        } catch {
            cancelRequests.remove(id)
            throw error
        }
    }
}
