import ArgumentParser
import DesktopIndicator
import NetworkActivityClient

/// How `netactivity watch` prints a state: one line each.
enum WatchFormat: String, CaseIterable, ExpressibleByArgument {
    case plain, json, waybar, polybar, i3blocks

    /// The panels' text while the indicator shows.
    static let arrows = "⇅"
    /// The idle look's colour in the panels that take one: the tray's idle grey (IndicatorLook.idle).
    static let idleColour = "#9E9E9E"

    /// One line for `state`; with `showsIdle`, the panel formats keep an idle look on screen instead of hiding.
    func render(_ state: IndicatorState, showsIdle: Bool = false) -> String {
        let overall = state.isVisible ? OverallProgress.percent(of: state.activities) : nil
        let progress = overall.map { " · \($0) %" } ?? ""
        let panelText = state.isVisible || showsIdle ? "\(Self.arrows) \(state.activeCount)\(progress)" : ""
        switch self {
        case .plain:
            return "\(state.isVisible ? "active" : "idle") \(state.activeCount)\(progress)"
        case .json:
            return encodeJSON(WatchJSON(
                running: state.isServiceRunning, visible: state.isVisible, count: state.activeCount,
                labels: state.labels, percent: OverallProgress.percent(of: state.activities),
                activities: state.activities.map(ActivityJSON.init)))
        case .waybar:
            let name = state.isVisible ? "active" : "idle"
            let isStopping = state.isVisible && state.activities.contains(where: \.isCancelRequested)
            // waybar reads the tooltip as Pango markup.
            let tooltip = state.activities.isEmpty ? ActivitySummary.idleText
                : ActivityStatus.summaryLines(state.activities).map(\.markupEscaped).joined(separator: "\n")
            return encodeJSON(WaybarJSON(text: panelText, tooltip: panelText.isEmpty ? "" : tooltip,
                                         class: isStopping ? "stopping" : name, alt: name, percentage: overall))
        case .polybar:
            // polybar's colour tag greys the idle look.
            return state.isVisible || panelText.isEmpty ? panelText : "%{F\(Self.idleColour)}\(panelText)%{F-}"
        case .i3blocks:
            // i3blocks reads JSON with `format=json`: an empty full_text hides the block, where an empty line of
            // plain text is an error with `interval=persist`.
            return encodeJSON(I3BlocksJSON(fullText: panelText, color: state.isVisible || panelText.isEmpty ? nil : Self.idleColour))
        }
    }

    private struct WatchJSON: Encodable {
        let running: Bool
        let visible: Bool
        let count: UInt32
        let labels: [String]
        /// How far the activities are together (`OverallProgress`); absent when unknown.
        let percent: UInt32?
        let activities: [ActivityJSON]
    }

    /// One activity's record with the keys of `GetActivities`; 0 for "no deadline" and "no process", as there.
    private struct ActivityJSON: Encodable {
        let id: UInt32
        let label: String
        let owner: String
        let started: UInt64
        let deadline: UInt64
        let user: UInt32?
        let process: UInt32
        let app: String?
        let system: Bool
        let cancellable: Bool
        let cancelRequested: Bool
        let percent: UInt32?
        let done: UInt64?
        let total: UInt64?
        let rate: UInt64?
        let source: String?

        private enum CodingKeys: String, CodingKey {
            case id, label, owner, started, deadline, user, process, app, system, cancellable, percent, done, total
            case rate, source
            case cancelRequested = "cancel-requested"
        }

        init(_ activity: ActivityStatus) {
            id = activity.id.rawValue
            label = activity.label
            owner = activity.owner
            started = activity.startedAt
            deadline = activity.deadline ?? 0
            user = activity.user
            process = activity.ownerProcessID ?? 0
            app = activity.application
            system = activity.isSystem
            cancellable = activity.isCancellable
            cancelRequested = activity.isCancelRequested
            percent = activity.percent
            done = activity.done
            total = activity.total
            rate = activity.rate
            source = activity.source
        }
    }

    /// What i3blocks reads from a block with `format=json`.
    private struct I3BlocksJSON: Encodable {
        let fullText: String
        let color: String?
    }

    /// What waybar's custom module reads with `"return-type": "json"`.
    private struct WaybarJSON: Encodable {
        let text: String
        let tooltip: String
        let `class`: String
        let alt: String
        /// Read by waybar's `{percentage}` and `format-icons`; absent when unknown.
        let percentage: UInt32?
    }
}
