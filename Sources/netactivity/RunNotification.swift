import DBusKit
import DesktopProtocols
import IndicatorPresentation

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

    /// Shows it on the session bus's notification server; nothing happens when there is no session bus or no
    /// server, since the notification is only a courtesy.
    func show() {
        do throws(DBusError) {
            _ = try BlockingConnection(bus: .session).call(notification.notifyCall(), timeout: .seconds(5))
        } catch where DesktopNotification.meansNoServer(error) || error.name == .noServer
            || error.name == .noReply {
            return
        } catch {
            printError("warning: the notification server refused the notification: \(error)")
        }
    }
}
