internal import NetworkActivityInterface

/// The service's state as `NetworkActivityClient.status()` read it.
public struct ServiceStatus: Sendable, Equatable {
    /// Whether the indicator should show (the `Visible` property).
    public var isVisible: Bool
    /// How many activities are active (the `ActiveCount` property).
    public var activeCount: UInt32
    /// Every active activity, ordered by id.
    public var activities: [ActivityStatus]
    /// When the status was read, in microseconds since the Unix epoch: ages and time left count from here.
    public var takenAt: UInt64
}

/// One active activity, with what the bus tells of the process that began it.
public struct ActivityStatus: Sendable, Equatable {

    /// The id that `Begin` or `BeginWithTimeout` returned.
    public var id: ActivityID
    /// What the activity is, for people.
    public var label: String
    /// The unique bus name of the connection that began it, such as `:1.42`.
    public var owner: String
    /// The owner's process id, as the service found it when the activity began; nil when unknown.
    public var ownerProcessID: UInt32?
    /// The application that began it, as the service found it: its desktop file id where the system says it
    /// (`firefox-esr`, `org.gnome.Nautilus`), otherwise its command name; nil when unknown.
    public var application: String?
    /// When it began, in microseconds since the Unix epoch.
    public var startedAt: UInt64
    /// When it ends by itself, in microseconds since the Unix epoch; nil for one without a deadline.
    public var deadline: UInt64?
    /// The Unix user it counts against; nil when the record did not say.
    public var user: UInt32?
    /// Whether it is the system service's, seen from the session.
    public var isSystem: Bool
    /// Whether its owner will stop it when asked (``NetworkActivityClient/requestCancel(_:)``).
    public var isCancellable: Bool
    /// Whether it has been asked to stop.
    public var isCancelRequested: Bool
    /// How far it is, 0 to 100, when its owner said or its amounts tell.
    public var percent: UInt32?
    /// Bytes moved so far, when its owner said.
    public var done: UInt64?
    /// Bytes to move in all, when known.
    public var total: UInt64?
    /// Bytes per second, smoothed over the last few seconds, once its owner has reported amounts twice.
    public var rate: UInt64?
    /// The program whose announcements the service followed to make it (`packagekit` for PackageKit's
    /// downloads, `launcher` for an app's progress on its launcher); nil for an activity a caller began.
    public var source: String?

    /// An activity with these values.
    public init(id: ActivityID, label: String, owner: String, ownerProcessID: UInt32?, application: String?,
                startedAt: UInt64, deadline: UInt64?, user: UInt32? = nil, isSystem: Bool = false,
                isCancellable: Bool = false, isCancelRequested: Bool = false, percent: UInt32? = nil,
                done: UInt64? = nil, total: UInt64? = nil, rate: UInt64? = nil, source: String? = nil) {
        self.id = id
        self.label = label
        self.owner = owner
        self.ownerProcessID = ownerProcessID
        self.application = application
        self.startedAt = startedAt
        self.deadline = deadline
        self.user = user
        self.isSystem = isSystem
        self.isCancellable = isCancellable
        self.isCancelRequested = isCancelRequested
        self.percent = percent
        self.done = done
        self.total = total
        self.rate = rate
        self.source = source
    }

    /// How long it has been active at `time` (microseconds since the Unix epoch).
    public func age(at time: UInt64) -> Duration {
        .microseconds(Int64(time) - Int64(startedAt))
    }

    /// How long until its deadline at `time`, never negative; nil for one without a deadline.
    public func timeLeft(at time: UInt64) -> Duration? {
        deadline.map { .microseconds(max(0, Int64($0) - Int64(time))) }
    }
}

extension ActivityStatus {
    /// An activity as `GetActivities` and `ActivitiesChanged` tell it.
    init(_ details: ActivityDetails) {
        self.init(id: ActivityID(rawValue: details.id), label: details.label, owner: details.owner,
                  ownerProcessID: details.processID, application: details.application,
                  startedAt: details.startedAt, deadline: details.deadline, user: details.user,
                  isSystem: details.isSystem, isCancellable: details.isCancellable,
                  isCancelRequested: details.isCancelRequested, percent: details.percent, done: details.done,
                  total: details.total, rate: details.rate, source: details.source)
    }
}
