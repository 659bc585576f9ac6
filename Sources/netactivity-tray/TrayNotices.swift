// SPDX-License-Identifier: Apache-2.0
import DBusKit
import DesktopIndicator
import Localization
import NetworkActivityClient
import ProgramSupport

/// The notifications the tray shows of itself: the activities on a click, those that finished after running
/// long enough, and a stop the service refused.
final class TrayNotices {
    private let notifier: DesktopNotifier
    /// Activities that lasted at least this long are announced with a notification when they end; nil: none are.
    private let notifyAfter: Duration?

    init(notifier: DesktopNotifier, notifyAfter: Duration?) {
        self.notifier = notifier
        self.notifyAfter = notifyAfter
    }

    /// Every activity, one per line.
    func showActivities(of state: IndicatorState) {
        show(summary: ActivitySummary(count: state.activities.count, labels: []).text,
             body: ActivityStatus.summaryLines(state.activities).joined(separator: "\n"))
    }

    /// With `notifyAfter`: names the activities of at least that age that `before` had and `after` has not.
    func showFinished(before: IndicatorState, after: IndicatorState, at now: UInt64) {
        // A service that stops has not finished its activities.
        guard let notifyAfter, before.isServiceRunning, after.isServiceRunning else { return }
        let remaining = Set(after.activities.map(\.id))
        let finished = before.activities.filter { !remaining.contains($0.id) && $0.age(at: now) >= notifyAfter }
        guard !finished.isEmpty else { return }
        let text = FinishedActivities(finished, endedAt: now)
        show(summary: text.summary, body: text.body)
    }

    /// The person clicked Stop, and the service (or the source behind it: PackageKit) refused.
    func showStopRefused(_ title: String, _ error: DBusError) {
        show(summary: localized("Could not stop %s", title), body: error.message)
    }

    /// `body` is plain text, escaped here for the servers that read markup.
    private func show(summary: String, body: String) {
        notifier.show(DesktopNotification(applicationName: "netactivity", iconName: IndicatorLook.active.iconName,
                                          summary: summary, body: body.markupEscaped))
    }
}
