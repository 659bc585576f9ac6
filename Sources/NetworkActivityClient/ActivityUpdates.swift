// SPDX-License-Identifier: Apache-2.0
internal import DBusKit
internal import NetworkActivityInterface

/// The activities as ``NetworkActivityClient/activityUpdates()`` follows them: every one now, and what changed
/// since the previous update.
public struct ActivityUpdate: Sendable, Equatable {
    /// Every active activity, in the order they began; empty while the service is not running.
    public var activities: [ActivityStatus]
    /// The activities begun or changed since the previous update: every one in the first update, and in the first
    /// after the service started again.
    public var changed: [ActivityStatus]
    /// The ids of the activities that ended since the previous update.
    public var ended: [ActivityID]
}

extension NetworkActivityClient {
    /// The activities now, then after every change the service announces (`ActivitiesChanged`), with their progress
    /// and whether they can be stopped: what a download list or a panel's menu shows.
    ///
    /// The first update carries the current activities, read once with `GetActivities`; each later one follows a
    /// signal alone, without reading again. When the service stops, an update with no activities follows; when it
    /// starts again, an update with all of its activities. It never starts the service. The sequence finishes when
    /// the consuming task is cancelled, or when the bus itself goes away.
    public func activityUpdates() -> AsyncStream<ActivityUpdate> {
        let (updates, output) = AsyncStream.makeStream(of: ActivityUpdate.self)
        let holder = LoopBoundHolder<ActivityFollower>()
        let loss = busLossListeners.add { output.finish() }
        connection.onLoop { connection in
            let follower = ActivityFollower(connection: connection) { output.yield($0) }
            do throws(DBusError) {
                try connection.followOwner(of: ServiceNames.busName) { [weak follower] in
                    follower?.ownerChanged(to: $0)
                }
                try connection.subscribe(to: .activitiesChanged) { [weak follower] in follower?.apply($0) }
            } catch {
                output.finish()
                return
            }
            holder.value = follower
            follower.ownerChanged(to: (try? connection.nameOwner(of: ServiceNames.busName)) ?? "")
        }
        output.onTermination = { [connection, busLossListeners] _ in
            busLossListeners.remove(loss)
            connection.onLoop { _ in
                holder.value?.isStopped = true
                holder.value = nil
            }
        }
        return updates
    }
}
