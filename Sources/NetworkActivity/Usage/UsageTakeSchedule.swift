// SPDX-License-Identifier: Apache-2.0
public import ProgramSupport

/// When the kernel's counts are taken into the data usage: the rules of the system service's takes, apart from the
/// kernel and the file, so that they are tested with times the test chooses.
///
/// A take is due a minute after the last while anything moves (an entry the kernel made, an app it follows), at
/// local midnight if that comes first (so that each day gets its own bytes), and at once when a quarter of the
/// kernel's map filled within the minute (so that the map never evicts an entry nobody read). A question's take
/// (`saving` false) never moves the saving take that was due: however often a panel asks, what moved is written
/// within the minute. While no take is due, the kernel is to wake the service for its next new entry
/// (`newEntriesWake`); while one is, new entries wait in the ring for it.
public struct UsageTakeSchedule: Sendable {
    public static let takeInterval = Duration.seconds(60)

    /// When the next take is due; nil while nothing moves.
    public private(set) var nextTake: MonotonicTime?
    /// Whether the next take is at local midnight: what moved until then is the day's that ends.
    public private(set) var nextTakeEndsDay = false
    /// Whether the kernel should wake the service for a new entry.
    public private(set) var newEntriesWake = true
    private var lastTake: MonotonicTime?
    /// The entries the kernel made since the last take.
    private var entriesMade = 0
    /// How many entries within a minute make the take due at once.
    private let entriesBeforeTakingNow: Int

    /// - Parameter mapCapacity: how many entries the kernel's map holds.
    public init(mapCapacity: Int) {
        entriesBeforeTakingNow = max(1, mapCapacity / 4)
    }

    /// The kernel made an entry: an app moved something on a network since the last take. Returns true when it
    /// made the take due now (a quarter of the map within the minute).
    @discardableResult
    public mutating func entryMade(at now: MonotonicTime, untilMidnight: @autoclosure () -> Duration) -> Bool {
        moving(at: now, untilMidnight: untilMidnight())
        entriesMade += 1
        guard entriesMade >= entriesBeforeTakingNow, let due = nextTake, due > now else { return false }
        nextTake = now
        nextTakeEndsDay = false
        return true
    }

    /// Something moves (an app the kernel follows): a take is due within a minute of the last, unless one is.
    public mutating func moving(at now: MonotonicTime, untilMidnight: @autoclosure () -> Duration) {
        guard nextTake == nil else { return }
        schedule(lastTake.map { max(now, $0 + Self.takeInterval) } ?? now + Self.takeInterval, at: now,
                 untilMidnight: untilMidnight())
    }

    /// Whether a take is due now.
    public func isDue(at now: MonotonicTime) -> Bool {
        nextTake.map { now >= $0 } ?? false
    }

    /// The wall clock a take at `now` counts its bytes at: a midnight's take, however late the loop woke for it,
    /// counts for the day that ended.
    public func dayWallClock(_ wallClock: UInt64, at now: MonotonicTime) -> UInt64 {
        guard nextTakeEndsDay, let midnight = nextTake, now >= midnight else { return wallClock }
        return wallClock - min(wallClock, UInt64(midnight.duration(to: now).wholeMicroseconds) + 1)
    }

    /// A take happened at `now`, writing the file (`saving`) or not (a question's). With `stillMoving` (it took
    /// something, an entry stays in the kernel, or the totals are not written yet), the next is due a minute
    /// later, or at midnight, or when the saving take that was due is, whichever comes first.
    public mutating func taken(at now: MonotonicTime, saving: Bool, stillMoving: Bool,
                               untilMidnight: @autoclosure () -> Duration) {
        let savingTake = nextTake
        lastTake = now
        nextTake = nil
        nextTakeEndsDay = false
        entriesMade = 0
        guard stillMoving else {
            newEntriesWake = true
            return
        }
        let due = now + Self.takeInterval
        schedule(saving ? due : min(savingTake ?? due, due), at: now, untilMidnight: untilMidnight())
    }

    private mutating func schedule(_ due: MonotonicTime, at now: MonotonicTime, untilMidnight: Duration) {
        let midnight = now + untilMidnight
        nextTakeEndsDay = midnight <= due
        nextTake = min(due, midnight)
        newEntriesWake = false
    }
}
