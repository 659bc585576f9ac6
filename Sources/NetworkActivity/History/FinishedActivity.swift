// SPDX-License-Identifier: Apache-2.0
/// An activity that has ended, as the history keeps it: what `GetActivities` said of it at the end, when it ended
/// and how.
public struct FinishedActivity: Sendable, Equatable {
    public var id: ActivityID
    public var label: ActivityLabel
    /// Who began it, as `GetActivities` showed it: a unique bus name, or for a source's, the source's name and
    /// what it names the work by.
    public var owner: String
    /// The Unix user it counted against; nil when the bus could not tell (the caller left before it was asked).
    public var user: UInt32?
    public var processID: UInt32?
    /// The application that began it, when known.
    public var application: String?
    /// The source it came from; nil for a caller's.
    public var source: ActivitySource?
    /// Microseconds since the Unix epoch.
    public var startedAt: UInt64
    /// A timed activity's deadline, in microseconds since the Unix epoch.
    public var deadline: UInt64?
    /// Microseconds since the Unix epoch.
    public var endedAt: UInt64
    public var outcome: ActivityOutcome
    /// How far it was when it ended.
    public var progress: ActivityProgress
    /// Whether someone could have asked it to stop, at the end.
    public var wasCancellable: Bool
    /// The one user (besides root and the service's) who may learn that it ended: a source's private work.
    /// Never saved: it only says whom `HistoryChanged` is for.
    public var privateTo: UInt32?

    public init(id: ActivityID, label: ActivityLabel, owner: String, user: UInt32? = nil, processID: UInt32? = nil,
                application: String? = nil, source: ActivitySource? = nil, startedAt: UInt64, deadline: UInt64? = nil,
                endedAt: UInt64, outcome: ActivityOutcome, progress: ActivityProgress = ActivityProgress(),
                wasCancellable: Bool = false) {
        self.id = id
        self.label = label
        self.owner = owner
        self.user = user
        self.processID = processID
        self.application = application
        self.source = source
        self.startedAt = startedAt
        self.deadline = deadline
        self.endedAt = endedAt
        self.outcome = outcome
        self.progress = progress
        self.wasCancellable = wasCancellable
    }

    /// A caller's activity that ended `way`; who is behind its owner is for the service to add.
    init(_ ended: EndedActivity, _ way: ActivityOutcome, at time: UInt64) {
        let activity = ended.activity
        self.init(id: activity.id, label: activity.label, owner: activity.owner, user: activity.expiry?.creatorUser,
                  startedAt: activity.startedAt, deadline: activity.expiry?.wallClockDeadline, endedAt: time,
                  outcome: .of(way, cancelRequested: ended.extras.isCancelRequested), progress: ended.extras.progress,
                  wasCancellable: ended.extras.isCancellable)
    }

    /// A source's activity that ended `way`.
    init(_ activity: SourceActivity, _ way: ActivityOutcome, at time: UInt64) {
        let report = activity.report
        self.init(id: activity.id, label: report.label, owner: report.owner, user: report.user,
                  processID: report.processID, application: report.application, source: activity.source,
                  startedAt: activity.startedAt, endedAt: time, outcome: way,
                  progress: ActivityProgress(percent: report.percent, done: report.done, total: nil, rate: report.rate))
        privateTo = report.privateTo
    }
}
