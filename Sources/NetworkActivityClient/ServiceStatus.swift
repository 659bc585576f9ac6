// SPDX-License-Identifier: Apache-2.0
public import NetworkActivityInterface

/// The service's state as `NetworkActivityClient.status()` read it.
public struct ServiceStatus: Sendable, Equatable {
    /// Whether the indicator should show (the `Visible` property).
    public var isVisible: Bool
    /// How many activities are active (the `ActiveCount` property).
    public var activeCount: UInt32
    /// Whether apps' measured traffic shows (the `Traffic` property): `counting`, `off` or `unavailable`
    /// (`TrafficCounting`); nil from a service that does not say.
    public var traffic: String?
    /// Why it does not, in the service's words for people (`TrafficReason`); empty while it counts.
    public var trafficReason: String?
    /// Every active activity, in the order they began.
    public var activities: [ActivityStatus]
    /// When the status was read, in microseconds since the Unix epoch: ages and time left count from here.
    public var takenAt: UInt64
}

/// One activity as the service describes it (`GetActivities`, `ActivitiesChanged`, `GetHistory`): its record,
/// whose fields read as the activity's own (`activity.label`, `activity.percent`), and its id as an ``ActivityID``.
///
/// The fields are those of the record the interface declares once (`ActivityDetails`); a field added there is
/// here with no change.
@dynamicMemberLookup
public struct ActivityStatus: Sendable, Hashable {
    /// The record, as the service sent it.
    public var record: ActivityDetails

    public init(_ record: ActivityDetails) {
        self.record = record
    }

    /// The id that `Begin` or `BeginWithTimeout` returned.
    public var id: ActivityID { ActivityID(rawValue: record.id) }

    /// Whether `lhs` began before `rhs`: the order lists show activities in (their ids tell nothing of it).
    public static func beganBefore(_ lhs: ActivityStatus, _ rhs: ActivityStatus) -> Bool {
        (lhs.record.startedAt, lhs.record.id) < (rhs.record.startedAt, rhs.record.id)
    }

    public subscript<Value>(dynamicMember field: KeyPath<ActivityDetails, Value>) -> Value {
        record[keyPath: field]
    }

    public subscript<Value>(dynamicMember field: WritableKeyPath<ActivityDetails, Value>) -> Value {
        get { record[keyPath: field] }
        set { record[keyPath: field] = newValue }
    }

    /// How long it has been active at `time` (microseconds since the Unix epoch).
    public func age(at time: UInt64) -> Duration {
        .microseconds(Int64(time) - Int64(record.startedAt))
    }

    /// How long until its deadline at `time`, never negative; nil for one without a deadline.
    public func timeLeft(at time: UInt64) -> Duration? {
        record.deadline.map { .microseconds(max(0, Int64($0) - Int64(time))) }
    }
}
