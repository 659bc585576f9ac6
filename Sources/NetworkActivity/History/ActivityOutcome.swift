// SPDX-License-Identifier: Apache-2.0
/// How an activity ended, as its history entry says.
public enum ActivityOutcome: String, Sendable, Hashable, CaseIterable {
    /// Its owner ended it (`End`, or `Cancel` of its own), or its source said it was done, with no stop asked.
    case ended
    /// It ended after someone asked it to stop (`RequestCancel`), however it then ended.
    case stopped
    /// Its owner left the bus without ending it: the program exited or crashed, or the source's program went away.
    case left
    /// Its timeout passed.
    case expired
    /// `Reset` ended it.
    case reset
    /// Its app went away while its network was paused (`Pause`), before anyone resumed it. (Last: the state file
    /// numbers outcomes in this order.)
    case paused

    /// The outcome of an activity that ends this way: one asked to stop ended because it was asked, unless
    /// `Reset` ended it first.
    static func of(_ way: ActivityOutcome, cancelRequested: Bool) -> ActivityOutcome {
        cancelRequested && way != .reset ? .stopped : way
    }
}
