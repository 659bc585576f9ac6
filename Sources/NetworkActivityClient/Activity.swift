public import DBusKit
import Synchronization

/// A token for one activity: the activity lasts until the token is ended or released.
///
/// Releasing the last reference ends the activity, so forgetting to end one is impossible; `end()` ends it
/// earlier and reports the service's answer. Tokens may be passed between threads and tasks.
public final class Activity: Sendable {
    /// The id the service gave the activity.
    public let id: UInt32
    /// What the activity is, as it was begun.
    public let label: String
    private let client: NetworkActivityClient
    private let isSettled = Atomic(false)
    /// Tells the scope that holds the token, if any, that it may let go of it.
    private let onSettled: (@Sendable (UInt32) -> Void)?

    init(id: UInt32, label: String, client: NetworkActivityClient,
         onSettled: (@Sendable (UInt32) -> Void)? = nil) {
        self.id = id
        self.label = label
        self.client = client
        self.onSettled = onSettled
    }

    /// Ends the activity and waits for the service to confirm it; does nothing when the token already ended it.
    ///
    /// - Throws: `UnknownActivity` when the service ended it already (through `cancelAll()`, `Reset` or its
    ///   deadline), or the bus's error when the service cannot be reached.
    public func end() throws(DBusError) {
        guard settle() else { return }
        try client.end(id: id)
    }

    /// Gives the activity up to its deadline, or to the end of the client's connection for one without a
    /// deadline: the token no longer ends it. Returns the id, which `NetworkActivityClient.end(id:)` takes.
    @discardableResult
    public func detach() -> UInt32 {
        _ = settle()
        return id
    }

    /// Ends the activity without waiting for an answer; what releasing the token does.
    func endWithoutReply() {
        guard settle() else { return }
        client.endWithoutReply(id: id)
    }

    /// Marks the token as done with its activity; true for the first caller only.
    private func settle() -> Bool {
        guard !isSettled.exchange(true, ordering: .acquiringAndReleasing) else { return false }
        onSettled?(id)
        return true
    }

    deinit {
        endWithoutReply()
    }
}
