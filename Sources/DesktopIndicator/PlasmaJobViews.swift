// SPDX-License-Identifier: Apache-2.0
public import DBusKit
import NetworkActivityInterface
public import NetworkActivityClient
public import ProgramSupport

/// Shows activities as jobs in KDE Plasma's job tracker, when `org.kde.JobViewServer` is on the bus (Plasma's
/// notification applet serves it): for each, a view asked of the server with `requestView`, then kept up to date
/// through `org.kde.JobViewV2` and terminated when the activity goes. Plasma's cancel button on a job calls
/// `onCancel` with its activity. It never starts the server, and follows it when it leaves and comes back.
public final class PlasmaJobViews {
    private struct View {
        /// Set once the server has answered `requestView`.
        var path: ObjectPath?
        /// What the server has been told.
        var shown: JobViewContent?
        var isKillable: Bool
        /// The application the view was asked for with.
        var application: String

        /// Whether the view still fits `content`, which a new view would otherwise show.
        func isAskedFor(by content: JobViewContent) -> Bool {
            isKillable == content.isKillable && application == content.applicationName
        }
    }

    private let connection: Connection
    private let logger: Logger
    private let onCancel: (ActivityID) -> Void
    /// The server's unique name; empty while there is none.
    private var server = ""
    /// Counts the server's comings, so that an answer from one that has since left is told apart.
    private var serverRun = 0
    private var views: [ActivityID: View] = [:]
    private var wanted: [ActivityID: JobViewContent] = [:]

    public init(connection: Connection, logger: Logger, onCancel: @escaping (ActivityID) -> Void) throws(DBusError) {
        self.connection = connection
        self.logger = logger
        self.onCancel = onCancel
        try connection.followOwner(of: JobViewInterface.server.busName) { [unowned self] newOwner in serverChanged(to: newOwner) }
        try connection.subscribe(to: JobViewInterface.cancelRequested.rule(sender: JobViewInterface.server.busName)) {
            [unowned self] signal in cancelRequested(at: signal.path)
        }
        serverChanged(to: (try? connection.nameOwner(of: JobViewInterface.server.busName)) ?? "")
    }

    /// Shows `activities` as jobs, those that have progress or can be stopped, and ends the jobs of the rest.
    public func show(_ activities: [ActivityStatus]) {
        wanted = [:]
        for activity in activities {
            if let content = JobViewContent(activity) { wanted[activity.id] = content }
        }
        synchronize()
    }

    private func serverChanged(to newOwner: String) {
        guard newOwner != server else { return }
        server = newOwner
        serverRun += 1
        // A new server knows none of the jobs of the one before.
        views = [:]
        if !newOwner.isEmpty { logger.info("KDE's job tracker is on the bus: activities show as jobs there") }
        synchronize()
    }

    private func synchronize() {
        guard !server.isEmpty else { return }
        for (id, view) in views where wanted[id].map(view.isAskedFor(by:)) != true {
            // Gone, or its capability or application changed, which only a new view can say.
            terminate(view)
            views[id] = nil
        }
        for (id, content) in wanted {
            guard let view = views[id] else {
                requestView(for: id, content)
                continue
            }
            if let path = view.path, view.shown != content {
                update(path, from: view.shown, to: content)
                views[id]?.shown = content
            }
        }
    }

    private func requestView(for id: ActivityID, _ content: JobViewContent) {
        let killable = content.isKillable
        views[id] = View(path: nil, shown: nil, isKillable: killable, application: content.applicationName)
        let call = JobViewInterface.requestView.call(
            content.applicationName, content.applicationIcon, killable ? JobViewInterface.killable : 0,
            on: JobViewInterface.server)
        call.autoStart = false
        let run = serverRun
        connection.send(call) { [weak self] result in
            guard let self, run == serverRun else { return }
            switch result {
            case .success(var reply):
                guard let path = try? JobViewInterface.requestView.readReply(&reply) else { return }
                guard views[id]?.path == nil, views[id]?.isKillable == killable,
                      views[id]?.application == content.applicationName else {
                    // Ended, or asked for again, while the server answered.
                    terminate(View(path: path, shown: nil, isKillable: killable, application: content.applicationName))
                    return
                }
                views[id]?.path = path
                synchronize()
            case .failure(let error):
                logger.warning("KDE's job tracker refused a job view: \(error)")
            }
        }
    }

    /// Tells the view what changed: amounts before the percent, as KDE's own jobs do.
    private func update(_ path: ObjectPath, from shown: JobViewContent?, to content: JobViewContent) {
        if content.infoMessage != shown?.infoMessage {
            send(JobViewInterface.setInfoMessage.call(content.infoMessage, destination: JobViewInterface.server.busName, path: path))
        }
        if let total = content.totalBytes, total != shown?.totalBytes {
            send(JobViewInterface.setTotalAmount.call(total, "bytes", destination: JobViewInterface.server.busName, path: path))
        }
        if let done = content.processedBytes, done != shown?.processedBytes {
            send(JobViewInterface.setProcessedAmount.call(done, "bytes", destination: JobViewInterface.server.busName, path: path))
        }
        if let percent = content.percent, percent != shown?.percent {
            send(JobViewInterface.setPercent.call(percent, destination: JobViewInterface.server.busName, path: path))
        }
        if let rate = content.bytesPerSecond, rate != shown?.bytesPerSecond {
            send(JobViewInterface.setSpeed.call(rate, destination: JobViewInterface.server.busName, path: path))
        }
    }

    private func terminate(_ view: View) {
        guard let path = view.path else { return }
        send(JobViewInterface.terminate.call("", destination: JobViewInterface.server.busName, path: path))
    }

    /// Sends a call of the view's interface to the server, which answers with nothing (its methods are NoReply).
    private func send(_ call: Message) {
        call.expectsReply = false
        connection.send(call)
    }

    private func cancelRequested(at path: String?) {
        guard let path, let id = views.first(where: { $0.value.path?.rawValue == path })?.key else { return }
        logger.notice("KDE's job tracker asked to stop activity \(id)")
        onCancel(id)
    }
}
