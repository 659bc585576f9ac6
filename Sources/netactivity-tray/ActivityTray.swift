import DBusKit
import DesktopProtocols
import IndicatorPresentation
import Logging
import NetworkActivityClient

/// Shows the indicator's state as a tray icon: joins the tray when the indicator shows and leaves it when it
/// hides (or stays, with the idle look, per `idleMode`), and answers a click with a notification of the
/// activities.
final class ActivityTray {
    private let idleMode: IdleMode
    private let logger: Logger
    private var item: StatusNotifierItem!
    private let notifier: DesktopNotifier
    private var state = IndicatorState.serviceStopped
    /// The pixmaps of each look, drawn once.
    private let pixmaps: [IndicatorLook: [IconPixmap]] = [.active: drawn(.active), .idle: drawn(.idle)]

    init(connection: Connection, idleMode: IdleMode, logger: Logger) throws(DBusError) {
        self.idleMode = idleMode
        self.logger = logger
        notifier = DesktopNotifier(connection: connection, applicationName: "netactivity", logger: logger)
        let appearance = TrayAppearance(isVisible: false, activeCount: 0, labels: [], idleMode: idleMode)
        item = try StatusNotifierItem(
            connection: connection, id: "netactivity", category: "SystemServices", content: content(of: appearance),
            logger: logger
        ) { [unowned self] _, _ in notifyActivities() }
    }

    /// Shows `newState`: the new content first, so that a host that reads the item as it joins sees it current.
    func show(_ newState: IndicatorState) {
        state = newState
        let appearance = TrayAppearance(isVisible: newState.isVisible, activeCount: Int(newState.activeCount),
                                        labels: newState.labels, idleMode: idleMode)
        item.update(content(of: appearance))
        do throws(DBusError) {
            if appearance.isInTray { try item.publish() } else { try item.withdraw() }
        } catch {
            logger.error("could not \(appearance.isInTray ? "join" : "leave") the tray: \(error)")
        }
    }

    private func content(of appearance: TrayAppearance) -> ItemContent {
        let toolTip = ToolTip(iconName: appearance.look.iconName, title: TrayAppearance.title,
                              text: appearance.summary.markupEscaped)
        return ItemContent(title: TrayAppearance.title, status: appearance.isActive ? .active : .passive,
                           iconName: appearance.look.iconName, iconPixmaps: pixmaps[appearance.look] ?? [],
                           toolTip: toolTip)
    }

    /// A click: every activity's label, one per line.
    private func notifyActivities() {
        let body = ActivitySummary.markupList(state.labels)
        let summary = ActivitySummary(count: state.labels.count, labels: []).text
        notifier.show(summary: summary, body: body, iconName: IndicatorLook.active.iconName)
    }
}

private func drawn(_ look: IndicatorLook) -> [IconPixmap] {
    IndicatorLook.pixmapSizes.map { size in
        IconPixmap(width: Int32(size), height: Int32(size), argb: look.pixels(size: size))
    }
}
