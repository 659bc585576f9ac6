// SPDX-License-Identifier: Apache-2.0
import DBusKit
import DesktopIndicator
import Localization
import NetworkActivityClient
import NetworkActivityInterface
import ProgramSupport
#if canImport(Glibc)
import Glibc
#endif

/// The machine's data plans, told of in notifications (`PlanWarnings`): read with `GetPlans` when the service
/// starts and at each `PlansChanged` (a plan set, past its warning, used up, or in a new period), never by polling.
/// The notifications shown are kept in `shownFile`, so that a tray that restarts in the period does not tell again.
/// A used-up plan's notification offers "Resume" (`ResumePlan`, which polkit may ask the person to authenticate
/// for) where the server shows actions.
final class DataPlanNotices {
    static let resumeAction = "resume"

    private unowned let connection: Connection
    private let notifier: DesktopNotifier
    private let shownFile: String?
    private let logger: Logger
    private var warnings: PlanWarnings
    private var reads = ReadsInTurn()
    private var isServiceRunning = false
    /// The network of each used-up notification the server showed, by its id.
    private var usedUp: [UInt32: String] = [:]

    init(connection: Connection, notifier: DesktopNotifier, shownFile: String?, logger: Logger) throws(DBusError) {
        self.connection = connection
        self.notifier = notifier
        self.shownFile = shownFile
        self.logger = logger
        let shown = shownFile.flatMap { readSmallTextFile(atPath: $0) }
            .map { Set($0.split(separator: "\n").map(String.init)) } ?? []
        warnings = PlanWarnings(shown: shown)
        try connection.subscribe(to: PlansMembers.plansChanged.rule(sender: ServiceNames.busName,
                                                                      path: ServiceNames.plansPath)) {
            [unowned self] _ in read()
        }
        try notifier.onAction { [unowned self] id, action in
            guard action == Self.resumeAction, let network = usedUp.removeValue(forKey: id) else { return }
            resume(network)
        }
    }

    /// The service started (again), or said a plan changed: reads the plans.
    func read() {
        guard reads.start() else { return }
        connection.send(PlansMembers.getPlans.serviceCall().withoutAutoStart()) { [unowned self] result in
            switch result {
            case .success(let records): show(warnings.due(records.map(NetworkDataPlan.init)))
            case .failure(let error): logger.debug("no data plans: \(error)")
            }
            if reads.finished() { read() }
        }
    }

    private func show(_ due: [PlanWarnings.Warning]) {
        guard !due.isEmpty else { return }
        for warning in due {
            logger.notice("the data plan of \(warning.network) is \(warning.level.rawValue): \(warning.used) of \(warning.cap) bytes")
            let actions = warning.level == .usedUp ? [Self.resumeAction, localized("Resume")] : []
            notifier.show(DesktopNotification(applicationName: "netactivity", iconName: IndicatorLook.active.iconName,
                                              summary: warning.summary, body: warning.body.markupEscaped,
                                              actions: actions), replacing: 0) { [weak self] id in
                if warning.level == .usedUp { self?.usedUp[id] = warning.network }
            }
        }
        guard let shownFile else { return }
        do {
            close(try AtomicFile.replace(shownFile, with: Array(warnings.shown.sorted().joined(separator: "\n").utf8)))
        } catch {
            logger.debug("could not keep the plans' notifications shown in \(shownFile): \(error)")
        }
    }
}

extension DataPlanNotices {
    /// "Resume" on a used-up plan's notification: the service asks polkit, which may ask the person first.
    private func resume(_ network: String) {
        connection.send(PlansMembers.resumePlan.serviceCall(network).withoutAutoStart(), timeout: .seconds(120)) {
            [unowned self] result in
            switch result {
            case .success: logger.notice("the data plan of \(network) is resumed until it resets")
            case .failure(let error): logger.warning("the data plan of \(network) was not resumed: \(error)")
            }
        }
    }
}

extension DataPlanNotices: TrayOutput {
    func follow(_ state: IndicatorState) {
        guard state.isServiceRunning != isServiceRunning else { return }
        isServiceRunning = state.isServiceRunning
        if isServiceRunning { read() }
    }
}
