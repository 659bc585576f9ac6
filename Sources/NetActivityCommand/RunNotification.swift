// SPDX-License-Identifier: Apache-2.0
import DBusKit
import DesktopIndicator

/// The desktop notification of `netactivity run --notify`: what ran, for how long, and how it ended.
struct RunNotification {
    let notification: DesktopNotification

    /// - Parameters:
    ///   - command: the command and its arguments, as given.
    ///   - status: its exit status, 128+N when signal N killed it.
    init(command: [String], label: String, duration: Duration, status: Int32) {
        let outcome = status == 0 ? "finished" : "failed"
        let ending = status == 0 ? "" : status > 128 ? ", killed by signal \(status - 128)"
            : ", exit status \(status)"
        notification = DesktopNotification(
            applicationName: "netactivity", iconName: status == 0 ? "network-transmit-receive" : "dialog-error",
            summary: "\(ActivitySummary.displayed(label)) \(outcome)",
            body: "\(command.joined(separator: " ")) ran for \(ElapsedTime.precise(duration))\(ending)".markupEscaped,
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
