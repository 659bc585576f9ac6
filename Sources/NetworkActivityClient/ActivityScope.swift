// SPDX-License-Identifier: Apache-2.0
import ProgramSupport

/// The activities of one part of a program, such as a screen or a module: ``cancel()`` ends them all, and releasing
/// the scope ends whatever is left.
///
/// The scope holds its tokens, so an activity begun here lasts until it is ended, the scope is cancelled or
/// released, or the client's connection closes; dropping the returned token alone does not end it.
public final class ActivityScope: Sendable {
    private let client: NetworkActivityClient
    private let activities = Lock<[ActivityID: Activity]>([:])

    /// An empty scope whose activities `client` begins.
    public init(client: NetworkActivityClient) {
        self.client = client
    }

    /// Begins an activity held by this scope; see ``NetworkActivityClient/begin(_:)``.
    @discardableResult
    public func begin(_ label: String) async throws(NetworkActivityError) -> Activity {
        let id = try await client.beginActivity(label, seconds: nil)
        return hold(Activity(id: id, label: label, client: client, onSettled: forgetter))
    }

    /// Begins a timed activity held by this scope; see ``NetworkActivityClient/beginTimed(_:seconds:)``.
    @discardableResult
    public func beginTimed(_ label: String, seconds: UInt32) async throws(NetworkActivityError) -> Activity {
        let id = try await client.beginActivity(label, seconds: seconds)
        return hold(Activity(id: id, label: label, client: client, onSettled: forgetter))
    }

    /// How many of the scope's activities have not ended yet, as far as the scope knows.
    public var count: Int {
        activities.withLock { $0.count }
    }

    /// Ends every activity of the scope; returns how many it ended. The service receives the `End`s before any
    /// later call of the same client, without this waiting for each answer.
    @discardableResult
    public func cancel() -> Int {
        let held = activities.withLock { activities in
            defer { activities.removeAll() }
            return Array(activities.values)
        }
        for activity in held {
            activity.endWithoutReply()
        }
        return held.count
    }

    deinit {
        cancel()
    }

    private func hold(_ activity: Activity) -> Activity {
        activities.withLock { $0[activity.id] = activity }
        return activity
    }

    private var forgetter: @Sendable (ActivityID) -> Void {
        { [weak self] id in
            _ = self?.activities.withLock { $0.removeValue(forKey: id) }
        }
    }
}
