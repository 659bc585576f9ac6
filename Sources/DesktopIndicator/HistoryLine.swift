// SPDX-License-Identifier: Apache-2.0
public import NetworkActivityClient

/// One finished activity in a line, as the tray's Recent rows and `netactivity history` tell it.
extension HistoryEntry {
    /// The outcome as a person reads it: "finished", "stopped", "quit" (its program left without ending it),
    /// "timed out", "reset".
    public var outcomeText: String {
        switch outcome {
        case .ended: "finished"
        case .stopped: "stopped"
        case .left: "quit"
        case .expired: "timed out"
        case .reset: "reset"
        default: "ended"
        }
    }

    /// What it moved, when known, and how long it ran: "1.2 GB in 6 min", "6 min".
    public var amountAndDuration: String {
        let duration = ElapsedTime.coarse(duration)
        guard let done = activity.done, done > 0 else { return duration }
        return "\(ByteAmount.text(done)) in \(duration)"
    }

    /// "Déjà Dup: backup — 1.2 GB in 6 min, finished 14:02", "update — 2 min, stopped 09:15".
    public var menuLine: String {
        "\(activity.title) — \(amountAndDuration), \(outcomeText) \(LocalTime.clock(endedAt))"
    }
}
