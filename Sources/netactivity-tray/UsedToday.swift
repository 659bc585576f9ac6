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

/// The day's data usage, for the tray's menu ("Used today", headed by the machine's data plans) and the warning
/// on metered connections: read with `GetUsage` and `GetPlans` when the service starts, at each `UsageChanged`
/// (at most once a minute while apps move anything) and when a host is about to show the menu, never by polling. Where nothing counts apps' traffic, the service says so and nothing shows.
///
/// A warning is shown once per app and day; the apps warned of are kept in `warningsFile`, so that a tray that
/// restarts during the day does not warn again.
final class UsedToday {
    private unowned let connection: Connection
    private let logger: Logger
    private let clock: any TimeSource
    private let notifier: DesktopNotifier
    private let warningsFile: String?
    private var warnings: MeteredWarnings
    private let onChange: () -> Void
    private(set) var today = DataUsedToday([], day: "", user: 0)
    /// The machine's data plans, with what each used this period.
    private(set) var plans: [NetworkDataPlan] = []
    private var reads = ReadsInTurn()
    private var isServiceRunning = false

    init(connection: Connection, notifier: DesktopNotifier, meteredWarning: UInt64, warningsFile: String?,
         clock: any TimeSource, logger: Logger, onChange: @escaping () -> Void) throws(DBusError) {
        self.connection = connection
        self.notifier = notifier
        self.warningsFile = warningsFile
        self.clock = clock
        self.logger = logger
        self.onChange = onChange
        let warned = warningsFile.flatMap { readSmallTextFile(atPath: $0) }
            .map { Set($0.split(separator: "\n").map(String.init)) } ?? []
        warnings = MeteredWarnings(threshold: meteredWarning, warned: warned)
        try connection.subscribe(to: UsageMembers.usageChanged.rule(sender: ServiceNames.busName,
                                                                      path: ServiceNames.usagePath)) {
            [unowned self] _ in read()
        }
    }

    /// The service started (again), or said the usage changed: reads the day's rows.
    func read() {
        guard reads.start() else { return }
        readPlans()
        let day = LocalFormats.day(clock.now().wallClock)
        connection.send(UsageMembers.getUsage.serviceCall(day, true).withoutAutoStart()) { [unowned self] result in
            switch result {
            case .success(let records):
                let rows = records.map(AppDataUsage.init)
                let read = DataUsedToday(rows, day: day, user: UInt32(getuid()))
                if read != today {
                    today = read
                    onChange()
                }
                warn(warnings.due(rows, user: UInt32(getuid()), day: day))
            case .failure(let error):
                logger.debug("no data usage: \(error)")
            }
            if reads.finished() { read() }
        }
    }

    /// Read beside the usage, since both grow together; where nothing counts traffic, there are none.
    private func readPlans() {
        connection.send(PlansMembers.getPlans.serviceCall().withoutAutoStart()) { [unowned self] result in
            let read = ((try? result.get()) ?? []).map(NetworkDataPlan.init)
            guard read != plans else { return }
            plans = read
            onChange()
        }
    }

    func serviceRuns(_ runs: Bool) {
        guard runs != isServiceRunning else { return }
        isServiceRunning = runs
        if runs {
            read()
        } else if !today.isEmpty || !plans.isEmpty {
            today = DataUsedToday([], day: "", user: 0)
            plans = []
            onChange()
        }
    }

    private func warn(_ due: [MeteredWarnings.Warning]) {
        guard !due.isEmpty else { return }
        for warning in due {
            logger.notice("\(warning.application) used \(warning.bytes) bytes on the metered \(warning.network) today")
            notifier.show(DesktopNotification(applicationName: "netactivity", iconName: IndicatorLook.active.iconName,
                                              summary: localized("Metered connection"),
                                              body: warning.text.markupEscaped))
        }
        guard let warningsFile else { return }
        do {
            close(try AtomicFile.replace(warningsFile, with: Array(warnings.warned.sorted().joined(separator: "\n").utf8)))
        } catch {
            logger.debug("could not keep the warnings shown in \(warningsFile): \(error)")
        }
    }
}

extension UsedToday: TrayOutput {
    func follow(_ state: IndicatorState) {
        serviceRuns(state.isServiceRunning)
    }
}
