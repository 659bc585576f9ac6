// SPDX-License-Identifier: Apache-2.0
public import NetworkActivityClient

/// How far the active activities are, taken together: what a panel module shows after the count (`⇅ 2 · 45 %`)
/// and waybar's `percentage`.
public enum OverallProgress {
    /// When every activity has a total amount, the bytes moved of all the bytes to move, so that a large download
    /// weighs more than a small one; otherwise the mean of the percents that are known; nil when none is. Rounded
    /// down, so that 100 means every activity is done.
    public static func percent(of activities: [ActivityStatus]) -> UInt32? {
        guard !activities.isEmpty else { return nil }
        if activities.allSatisfy({ ($0.total ?? 0) > 0 }) {
            let done = activities.reduce(0.0) { $0 + Double(min($1.done ?? 0, $1.total ?? 0)) }
            let total = activities.reduce(0.0) { $0 + Double($1.total ?? 0) }
            return UInt32(min(100, (done * 100 / total).rounded(.down)))
        }
        let known = activities.compactMap(\.percent)
        guard !known.isEmpty else { return nil }
        return UInt32(known.reduce(0) { $0 + UInt64(min($1, 100)) } / UInt64(known.count))
    }
}
