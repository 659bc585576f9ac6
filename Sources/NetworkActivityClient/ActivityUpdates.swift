internal import DBusKit
internal import NetworkActivityInterface

/// The activities as ``NetworkActivityClient/activityUpdates()`` follows them: every one now, and what changed
/// since the previous update.
public struct ActivityUpdate: Sendable, Equatable {
    /// Every active activity, ordered by id; empty while the service is not running.
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
        let follower = ActivityFollower(output)
        connection.onLoop { connection in follower.start(on: connection) }
        output.onTermination = { [connection] _ in
            connection.onLoop { _ in follower.stop() }
        }
        return updates
    }
}

/// Follows the service's activities on the client's loop thread, where the signals and the replies to its reads
/// arrive in the order the service sent them: a signal sent before a read's reply is older than the reply and is
/// dropped; one sent after it is applied to it.
private final class ActivityFollower: @unchecked Sendable {
    // Touched on the loop's thread only.
    private let output: AsyncStream<ActivityUpdate>.Continuation
    private var activities: [ActivityID: ActivityStatus] = [:]
    private var owner = ""
    /// Set while a read is on its way: signals until its reply are older than it.
    private var isReading = false
    private var isStopped = false
    private var hasYielded = false

    init(_ output: AsyncStream<ActivityUpdate>.Continuation) {
        self.output = output
    }

    func start(on connection: Connection) {
        do throws(DBusError) {
            try connection.followOwner(of: ServiceNames.busName) { [weak self, unowned connection] newOwner in
                self?.ownerChanged(to: newOwner, on: connection)
            }
            try connection.subscribe(to: MatchRule(
                sender: ServiceNames.busName, path: ServiceNames.objectPath, interface: ServiceNames.interface,
                member: ServiceNames.activitiesChanged)
            ) { [weak self] signal in self?.apply(signal) }
        } catch {
            output.finish()
            return
        }
        ownerChanged(to: (try? connection.nameOwner(of: ServiceNames.busName)) ?? "", on: connection)
    }

    func stop() {
        isStopped = true
    }

    private func ownerChanged(to newOwner: String, on connection: Connection) {
        guard !isStopped, newOwner != owner || !hasYielded else { return }
        owner = newOwner
        // The service left, or another took its place: what the last one had is gone.
        if !activities.isEmpty || (newOwner.isEmpty && !hasYielded) {
            let ended = activities.keys.sorted()
            activities = [:]
            yield(ActivityUpdate(activities: [], changed: [], ended: ended))
        }
        guard !newOwner.isEmpty else { return }
        read(on: connection)
    }

    private func yield(_ update: ActivityUpdate) {
        hasYielded = true
        output.yield(update)
    }

    private func read(on connection: Connection) {
        isReading = true
        let call = Message.serviceCall("GetActivities")
        call.autoStart = false
        let asked = owner
        connection.send(call, timeout: .seconds(25)) { [weak self] result in
            guard let self, !isStopped, asked == owner else { return }
            isReading = false
            guard case .success(var reply) = result,
                  let details = try? reply.read([ActivityDetails].self) else { return }
            let statuses = details.map { ActivityStatus($0) }
            activities = Dictionary(statuses.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
            yield(ActivityUpdate(activities: statuses, changed: statuses, ended: []))
        }
    }

    private func apply(_ signal: Message) {
        guard !isStopped, !isReading else { return }
        var arguments = signal.arguments()
        guard let report = try? ActivityChangeReport(reading: &arguments) else { return }
        let changed = report.changed.map { ActivityStatus($0, earlier: activities[ActivityID(rawValue: $0.id)]) }
        let ended = report.ended.map { ActivityID(rawValue: $0) }
        for id in ended { activities[id] = nil }
        for status in changed { activities[status.id] = status }
        yield(ActivityUpdate(activities: activities.values.sorted { $0.id < $1.id }, changed: changed, ended: ended))
    }
}
