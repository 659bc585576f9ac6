// SPDX-License-Identifier: Apache-2.0
import Localization
public import NetworkActivityClient

/// One finished activity in a line, as the tray's Recent rows and `netactivity history` tell it.
extension HistoryEntry {
    /// The outcome as a person reads it: "finished", "stopped", "quit" (its program left without ending it),
    /// "timed out", "reset", "quit while paused".
    public var outcomeText: String {
        switch outcome {
        case .ended: localized("finished")
        case .stopped: localized("stopped")
        // TRANSLATORS: an activity whose program quit without ending it.
        case .left: localized("quit")
        case .expired: localized("timed out")
        case .reset: localized("reset")
        // TRANSLATORS: an app that exited while its network was paused.
        case .paused: localized("quit while paused")
        default: localized("ended")
        }
    }

    /// What it moved, when known, and how long it ran: "1.2 GB in 6 min", "6 min".
    public var amountAndDuration: String {
        let duration = ElapsedTime.coarse(duration)
        guard let done = activity.done, done > 0 else { return duration }
        // TRANSLATORS: an amount moved and for how long: "1.2 GB in 6 min".
        return localized("%s in %s", ByteAmount.text(done), duration)
    }

    /// "Déjà Dup: backup — 1.2 GB in 6 min, finished 14:02", "update — 2 min, stopped 09:15".
    public var menuLine: String {
        // TRANSLATORS: a finished activity, what it moved and for how long, its outcome and the time it ended: "backup — 1.2 GB in 6 min, finished 14:02".
        localized("%s — %s, %s %s", activity.title, amountAndDuration, outcomeText, LocalFormats.clock(endedAt))
    }
}
