import ArgumentParser
import DesktopIndicator
import NetworkActivityClient

/// How `netactivity watch` prints a state: one line each.
enum WatchFormat: String, CaseIterable, ExpressibleByArgument {
    case plain, json, waybar, polybar, i3blocks

    var showsLabels: Bool { self == .json || self == .waybar }

    /// The panels' text while the indicator shows.
    static let arrows = "⇅"
    /// The idle look's colour in the panels that take one: the tray's idle grey (IndicatorLook.idle).
    static let idleColour = "#9E9E9E"

    /// One line for `state`; with `showsIdle`, the panel formats keep an idle look on screen instead of hiding.
    func render(_ state: IndicatorState, showsIdle: Bool = false) -> String {
        let panelText = state.isVisible || showsIdle ? "\(Self.arrows) \(state.activeCount)" : ""
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
            return encodeJSON(WaybarJSON(text: panelText, tooltip: panelText.isEmpty ? "" : tooltip, class: name,
                                         alt: name))
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
    }
}
