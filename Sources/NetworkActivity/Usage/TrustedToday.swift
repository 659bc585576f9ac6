// SPDX-License-Identifier: Apache-2.0
public import ProgramSupport

/// The day that the kept days of data usage end on, for forgetting older ones (`DataUsage.dropOldDays`), from a
/// wall clock that may jump. A machine that boots with a wrong clock sets it at its first NTP sync, and a clock
/// set a year ahead by mistake is set back within minutes: the wall clock's day is believed at once when it is no
/// further ahead than the monotonic time since the last believed day allows (a day, and one more for midnight and
/// time zones), and otherwise only once it has stayed ahead for `aheadBelievedAfter`, as after a suspend of weeks
/// (the monotonic clock does not count a suspend). Until then old days are dropped against the day that time
/// allows, so that a jump ahead and back loses no kept day.
public struct TrustedToday: Sendable {
    public static let aheadBelievedAfter = Duration.seconds(3_600)

    private var believed: (day: UsageDay, at: MonotonicTime)?
    private var aheadSince: MonotonicTime?

    /// `newestKept`: the newest day the totals hold when the service starts (a clock ahead of it is a jump too).
    public init(newestKept: UsageDay?, at now: MonotonicTime) {
        believed = newestKept.map { ($0, now) }
    }

    /// The day to drop old days against, when the wall clock says `wallDay` at `now`.
    public mutating func today(wallDay: UsageDay, at now: MonotonicTime) -> UsageDay {
        guard let believed else {
            believe(wallDay, at: now)
            return wallDay
        }
        let daysPassed = Int(believed.at.duration(to: now).wholeMicroseconds / 86_400_000_000)
        let allowed = believed.day.adding(days: daysPassed + 1)
        if wallDay <= allowed {
            believe(wallDay, at: now)
            return wallDay
        }
        let since = aheadSince ?? now
        aheadSince = since
        guard since.duration(to: now) >= Self.aheadBelievedAfter else { return allowed }
        believe(wallDay, at: now)
        return wallDay
    }

    private mutating func believe(_ day: UsageDay, at now: MonotonicTime) {
        believed = (day, now)
        aheadSince = nil
    }
}
