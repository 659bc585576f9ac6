import ArgumentParser
import IndicatorPresentation
import NetworkActivityClient

/// How `netactivity watch` prints a state: one line each.
enum WatchFormat: String, CaseIterable, ExpressibleByArgument {
    case plain, json, waybar, polybar, i3blocks

    var showsLabels: Bool { self == .json || self == .waybar }

    func render(_ state: IndicatorState) -> String {
        switch self {
        case .plain:
            return "\(state.isVisible ? "active" : "idle") \(state.activeCount)"
        case .json:
            return encodeJSON(WatchJSON(running: state.isServiceRunning, visible: state.isVisible,
                                        count: state.activeCount, labels: state.labels))
        case .waybar:
            let name = state.isVisible ? "active" : "idle"
            // waybar reads the tooltip as Pango markup.
            let tooltip = state.labels.isEmpty ? ActivitySummary.idleText : ActivitySummary.markupList(state.labels)
            return encodeJSON(WaybarJSON(text: String(state.activeCount), tooltip: tooltip, class: name, alt: name))
        case .polybar, .i3blocks:
            return state.isVisible ? "⇅ \(state.activeCount)" : ""
        }
    }

    private struct WatchJSON: Encodable {
        let running: Bool
        let visible: Bool
        let count: UInt32
        let labels: [String]
    }

    /// What waybar's custom module reads with `"return-type": "json"`.
    private struct WaybarJSON: Encodable {
        let text: String
        let tooltip: String
        let `class`: String
        let alt: String
    }
}
