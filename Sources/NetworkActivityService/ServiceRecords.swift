// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity
import NetworkActivityInterface

// What the service tells of the domain's activities, in the records the interface declares: the one place a
// domain value becomes a record's field.

extension ActivityDetails {
    /// A caller's live activity, with who is behind its owner.
    init(_ activity: TrackedActivity, extras: ActivityExtras, owner: CallerDirectory.Caller?) {
        let progress = extras.progress
        self.init(
            id: activity.id.rawValue, label: activity.label.text, owner: activity.owner, startedAt: activity.startedAt,
            deadline: activity.expiry?.wallClockDeadline,
            user: activity.expiry?.creatorUser ?? owner?.credentials.user ?? UInt32.max,
            processID: owner?.credentials.processID, application: owner?.application,
            isCancellable: extras.isCancellable, isCancelRequested: extras.isCancelRequested,
            percent: progress.percent, done: progress.done, total: progress.total, rate: progress.rate)
    }

    /// A source's live activity.
    init(_ activity: SourceActivity) {
        let report = activity.report
        self.init(
            id: activity.id.rawValue, label: report.label.text, owner: report.owner, startedAt: activity.startedAt,
            user: report.user ?? UInt32.max, processID: report.processID, application: report.application,
            percent: report.percent, done: report.done, rate: report.rate, received: report.received,
            sent: report.sent, source: Source(activity.source),
            isPaused: report.pausing == .notPausable ? nil : report.pausing == .paused,
            limitDown: report.limit?.down, limitUp: report.limit?.up, limitOnMetered: report.limit?.onMetered?.word,
            limitOverPlan: report.limit?.exemptFromPlans == true ? true : nil)
    }

    /// An entry of the history.
    init(_ entry: FinishedActivity) {
        let progress = entry.progress
        self.init(
            id: entry.id.rawValue, label: entry.label.text, owner: entry.owner, startedAt: entry.startedAt,
            deadline: entry.deadline, user: entry.user ?? UInt32.max, processID: entry.processID,
            application: entry.application, isCancellable: entry.wasCancellable,
            isCancelRequested: entry.outcome == .stopped, percent: progress.percent, done: progress.done,
            total: progress.total, rate: progress.rate, source: entry.source.map(Source.init),
            endedAt: entry.endedAt, outcome: Outcome(rawValue: entry.outcome.rawValue))
    }
}

extension ActivityDetails.Source {
    /// The record's name of a source the domain follows; the domain's names are the record's.
    init(_ source: ActivitySource) {
        self.init(rawValue: source.rawValue)
    }
}

extension ActivityRecord {
    /// What `ListActivities` tells of a caller's activity.
    init(_ activity: TrackedActivity) {
        self.init(id: activity.id.rawValue, owner: activity.owner, label: activity.label.text,
                  startedAt: activity.startedAt, deadline: activity.expiry?.wallClockDeadline)
    }

    /// What `ListActivities` tells of an activity that `GetActivities` gave whole (the system service's).
    init(_ details: ActivityDetails) {
        self.init(id: details.id, owner: details.owner, label: details.label, startedAt: details.startedAt,
                  deadline: details.deadline)
    }

    /// What `ListActivities` tells of a source's activity.
    init(_ activity: SourceActivity) {
        self.init(id: activity.id.rawValue, owner: activity.report.owner, label: activity.report.label.text,
                  startedAt: activity.startedAt, deadline: nil)
    }
}
