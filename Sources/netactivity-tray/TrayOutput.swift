// SPDX-License-Identifier: Apache-2.0
import DesktopIndicator
import NetworkActivityClient

/// Where the tray shows the activities besides its icon and menu: each app's progress on docks, progress
/// notifications, Plasma's jobs, and the menu's Recent rows. Each follows the indicator's state, fires its own
/// timers and stops the same way, so that a new output is one conformance and one line in `ActivityTray.init`.
protocol TrayOutput: AnyObject {
    /// The indicator's state now; each output takes what it shows of it.
    func follow(_ state: IndicatorState)
    /// Does what fell due; returns how long until the next, nil when nothing waits.
    func fireDueTimers() -> Duration?
    /// The tray stops (SIGTERM, SIGINT).
    func stop()
}

extension TrayOutput {
    func fireDueTimers() -> Duration? { nil }
    func stop() {}
}

extension DockProgress: TrayOutput {
    func follow(_ state: IndicatorState) {
        follow(state.isServiceRunning ? state.activities : [])
    }

    func fireDueTimers() -> Duration? { sendDue() }
}

extension ProgressBubbles: TrayOutput {
    func follow(_ state: IndicatorState) {
        _ = follow(state.isServiceRunning ? state.activities : [])
    }
}

extension PlasmaJobViews: TrayOutput {
    /// Jobs show while the indicator does, as the icon.
    func follow(_ state: IndicatorState) {
        show(state.isVisible ? state.activities : [])
    }
}

extension RecentActivities: TrayOutput {
    func follow(_ state: IndicatorState) {
        serviceRuns(state.isServiceRunning)
    }
}
