import ArgumentParser
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
            let tooltip = state.labels.isEmpty
                ? "No network activity"
                : state.labels.map { $0.isEmpty ? "(no label)" : pangoEscaped($0) }.joined(separator: "\n")
            return encodeJSON(WaybarJSON(text: String(state.activeCount), tooltip: tooltip, class: name, alt: name))
        case .polybar, .i3blocks:
            return state.isVisible ? "⇅ \(state.activeCount)" : ""
        }
    }

    /// waybar reads the tooltip as Pango markup, and labels come from other programs: a label's `&`, `<` and `>`
    /// must reach it as entities, or "<b>" would turn bold and a lone "&" blank the tooltip.
    private func pangoEscaped(_ label: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(label.utf8.count)
        for character in label {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
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
