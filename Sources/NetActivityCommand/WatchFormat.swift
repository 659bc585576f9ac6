// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import DesktopIndicator
import NetworkActivityClient
import ProgramSupport

/// How `netactivity watch` prints a state: one line each.
enum WatchFormat: String, CaseIterable, ExpressibleByArgument {
    case plain, json, waybar, polybar, i3blocks

    /// The panels' text while the indicator shows.
    static let arrows = "⇅"
    /// The idle look's colour in the panels that take one: the tray's idle grey (IndicatorLook.idle).
    static let idleColour = "#9E9E9E"

    /// One line for `state`; the JSON objects' own keys in alphabetical order, as they always were; with `showsIdle`, the panel formats keep an idle look on screen instead of hiding.
    func render(_ state: IndicatorState, showsIdle: Bool = false) -> String {
        let overall = state.isVisible ? OverallProgress.percent(of: state.activities) : nil
        let progress = overall.map { " · \($0) %" } ?? ""
        let panelText = state.isVisible || showsIdle ? "\(Self.arrows) \(state.activeCount)\(progress)" : ""
        switch self {
        case .plain:
            return "\(state.isVisible ? "active" : "idle") \(state.activeCount)\(progress)"
        case .json:
            return JSONValue.object([
                "activities": .array(state.activities.map(\.record.json)),
                "count": .unsigned(UInt64(state.activeCount)),
                "labels": .array(state.labels.map(JSONValue.string)),
                // How far the activities are together (`OverallProgress`); absent when unknown.
                "percent": OverallProgress.percent(of: state.activities).map { .unsigned(UInt64($0)) },
                "running": .bool(state.isServiceRunning),
                "visible": .bool(state.isVisible),
            ]).text
        case .waybar:
            let name = state.isVisible ? "active" : "idle"
            let isStopping = state.isVisible && state.activities.contains(where: \.isCancelRequested)
            // waybar reads the tooltip as Pango markup.
            let tooltip = state.activities.isEmpty ? ActivitySummary.idleText
                : ActivityStatus.summaryLines(state.activities).map(\.markupEscaped).joined(separator: "\n")
            // What waybar's custom module reads with `"return-type": "json"`; `percentage` feeds its
            // `{percentage}` and `format-icons`, absent when unknown.
            return JSONValue.object([
                "alt": .string(name),
                "class": .string(isStopping ? "stopping" : name),
                "percentage": overall.map { .unsigned(UInt64($0)) },
                "text": .string(panelText),
                "tooltip": .string(panelText.isEmpty ? "" : tooltip),
            ]).text
        case .polybar:
            // polybar's colour tag greys the idle look.
            return state.isVisible || panelText.isEmpty ? panelText : "%{F\(Self.idleColour)}\(panelText)%{F-}"
        case .i3blocks:
            // i3blocks reads JSON with `format=json`: an empty full_text hides the block, where an empty line of
            // plain text is an error with `interval=persist`.
            return JSONValue.object([
                "color": state.isVisible || panelText.isEmpty ? nil : .string(Self.idleColour),
                "full_text": .string(panelText),
            ]).text
        }
    }
}
