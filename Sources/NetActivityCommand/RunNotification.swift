// SPDX-License-Identifier: Apache-2.0
import DBusKit
import DesktopIndicator
import Localization

/// The desktop notification of `netactivity run --notify`: what ran, for how long, and how it ended.
struct RunNotification {
    let notification: DesktopNotification

    /// - Parameters:
    ///   - command: the command and its arguments, as given.
    ///   - status: its exit status, 128+N when signal N killed it.
    init(command: [String], label: String, duration: Duration, status: Int32) {
        let label = ActivitySummary.displayed(label)
        let commandLine = command.joined(separator: " ")
        let ran = ElapsedTime.precise(duration)
        let body = status == 0 ? localized("%s ran for %s", commandLine, ran)
            : status > 128 ? localized("%s ran for %s, killed by signal %d", commandLine, ran, status - 128)
            : localized("%s ran for %s, exit status %d", commandLine, ran, status)
        notification = DesktopNotification(
            applicationName: "netactivity", iconName: status == 0 ? "network-transmit-receive" : "dialog-error",
            summary: status == 0 ? localized("%s finished", label) : localized("%s failed", label),
            body: body.markupEscaped,
            urgency: status == 0 ? .normal : .critical)
    }

    /// Sends it to the session bus's notification server and does not wait: the notification is a courtesy, which
    /// must not hold up the command's exit status. Without a session bus, or without a server, nothing is shown.
    func show() {
        guard let connection = try? Connection(bus: .session) else { return }
        let call = notification.notifyCall()
        call.expectsReply = false
        connection.send(call)
        connection.flush()
    }
}
