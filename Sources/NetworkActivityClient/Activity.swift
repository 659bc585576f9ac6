// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// A token for one activity: the activity lasts until the token is ended or released.
///
/// Releasing the last reference ends the activity (without waiting for the service), so forgetting to end one is
/// impossible; ``end()`` ends it earlier and reports the service's answer. Tokens may be passed between tasks.
public final class Activity: Sendable {
    /// The id the service gave the activity.
    public let id: ActivityID
    /// What the activity is, as it was begun.
    public let label: String
    private let client: NetworkActivityClient
    private let isSettled = Atomic(false)
    /// Tells the scope that holds the token, if any, that it may let go of it.
    private let onSettled: (@Sendable (ActivityID) -> Void)?

    init(id: ActivityID, label: String, client: NetworkActivityClient,
         onSettled: (@Sendable (ActivityID) -> Void)? = nil) {
        self.id = id
        self.label = label
        self.client = client
        self.onSettled = onSettled
    }

    /// Ends the activity and waits for the service to confirm it; does nothing when the token already ended it.
    ///
    /// - Throws: ``NetworkActivityError/unknownActivity(message:)`` when the service ended it already (through
    ///   ``NetworkActivityClient/cancelAll()``, `Reset` or its deadline), or what the bus says when the service
    ///   cannot be reached.
    public func end() async throws(NetworkActivityError) {
        guard settle() else { return }
        try await client.end(id)
    }

    /// Says how far the activity is, 0 to 100; see ``NetworkActivityClient/setProgress(_:percent:)``.
    public func setProgress(_ percent: UInt32) async throws(NetworkActivityError) {
        try await client.setProgress(id, percent: percent)
    }

    /// Says how many bytes the activity has moved, and of how many when known; see
    /// ``NetworkActivityClient/setTransfer(_:done:total:)``.
    public func setTransfer(done: UInt64, total: UInt64? = nil) async throws(NetworkActivityError) {
        try await client.setTransfer(id, done: done, total: total)
    }

    /// Says that this program will stop the activity when someone asks (``NetworkActivityClient/requestCancel(_:)``,
    /// a panel's "Stop"), and what it does then: `onRequest` runs on the client's own thread, once per request, until
    /// the token ends the activity. Stopping, and ending the activity, stay this program's decision.
    public func makeCancellable(onRequest: @escaping @Sendable () -> Void) async throws(NetworkActivityError) {
        try await client.makeCancellable(id, onRequest: onRequest)
    }

    /// Gives the activity up to its deadline, or to the end of the client's connection for one without a deadline:
    /// the token no longer ends it. Returns the id, which ``NetworkActivityClient/end(_:)`` takes.
    @discardableResult
    public func detach() -> ActivityID {
        _ = settle()
        return id
    }

    /// Ends the activity without waiting for an answer; what releasing the token does.
    func endWithoutReply() {
        guard settle() else { return }
        client.endWithoutReply(id)
    }

    /// Marks the token as done with its activity; true for the first caller only.
    private func settle() -> Bool {
        guard !isSettled.exchange(true, ordering: .acquiringAndReleasing) else { return false }
        client.cancelRequests.remove(id)
        onSettled?(id)
        return true
    }

    deinit {
        endWithoutReply()
    }
}
