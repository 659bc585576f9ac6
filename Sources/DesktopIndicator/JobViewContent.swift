// SPDX-License-Identifier: Apache-2.0
import Localization
public import NetworkActivityClient

/// What KDE Plasma's job tracker shows of one activity (`org.kde.JobViewV2`): the application that began it, with
/// its icon, as the job's owner, the label as the job's message ("backup — stopping…" once asked to stop), its
/// percent, its amounts in bytes and its rate, and a cancel button exactly when the activity can be stopped.
public struct JobViewContent: Sendable, Equatable {
    /// The job's application and icon, fixed when the view is asked for: the desktop file's where there is one.
    public var applicationName: String
    public var applicationIcon: String
    public var infoMessage: String
    public var percent: UInt32?
    public var processedBytes: UInt64?
    public var totalBytes: UInt64?
    public var bytesPerSecond: UInt64?
    /// Whether Plasma offers to stop it (the capability `Killable`), fixed when the view is asked for.
    public var isKillable: Bool

    /// The job of `activity`; nil for one that tells no progress and cannot be stopped, which a plain indicator
    /// shows as well as a job would.
    public init?(_ activity: ActivityStatus) {
        let hasProgress = activity.percent != nil || activity.done != nil || activity.rate != nil
        guard hasProgress || activity.isCancellable else { return nil }
        applicationName = activity.applicationName ?? "netactivity"
        applicationIcon = activity.applicationIcon ?? IndicatorLook.active.iconName
        let label = ActivitySummary.displayed(activity.label)
        infoMessage = activity.isCancelRequested ? localized("%s — stopping…", label) : label
        percent = activity.percent
        processedBytes = activity.done
        totalBytes = activity.total
        bytesPerSecond = activity.rate
        isKillable = activity.isCancellable
    }
}
