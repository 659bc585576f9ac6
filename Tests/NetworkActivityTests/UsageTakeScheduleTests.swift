import NetworkActivity
import ProgramSupport
import Testing

/// When the data usage takes the kernel's counts, with times the test chooses: within a minute of what moved,
/// at midnight for the day that ends, at once when the kernel's map fills, and never later for a reader.
@Suite("The data usage's takes, in memory")
struct UsageTakeScheduleTests {
    var schedule = UsageTakeSchedule(mapCapacity: 40)
    let start = MonotonicTime(microseconds: 1_000_000)
    /// Far from midnight, unless a test says otherwise.
    static let noon = Duration.seconds(12 * 3_600)

    @Test mutating func whatMovedIsTakenAndSavedWithinTheMinuteWhileTheKernelWaitsInTheRing() {
        #expect(schedule.newEntriesWake && schedule.nextTake == nil)
        schedule.entryMade(at: start, untilMidnight: Self.noon)
        #expect(schedule.nextTake == start + .seconds(60) && !schedule.nextTakeEndsDay)
        #expect(!schedule.newEntriesWake, "new entries wait in the ring for the take")
        // More entries and moves within the minute change nothing of when.
        schedule.entryMade(at: start + .seconds(10), untilMidnight: Self.noon)
        schedule.moving(at: start + .seconds(20), untilMidnight: Self.noon)
        #expect(!schedule.isDue(at: start + .seconds(59)) && schedule.isDue(at: start + .seconds(60)))
        // The take found it still moving: the next a minute later; then one that found nothing lets the
        // kernel wake the service again.
        schedule.taken(at: start + .seconds(60), saving: true, stillMoving: true, untilMidnight: Self.noon)
        #expect(schedule.nextTake == start + .seconds(120) && !schedule.newEntriesWake)
        schedule.taken(at: start + .seconds(120), saving: true, stillMoving: false, untilMidnight: Self.noon)
        #expect(schedule.nextTake == nil && schedule.newEntriesWake)
        // A move soon after is taken a minute after the last take, not a minute after the move.
        schedule.moving(at: start + .seconds(150), untilMidnight: Self.noon)
        #expect(schedule.nextTake == start + .seconds(180))
    }

    /// The bug this replaced: a question's take moved the saving take a minute ahead each time, so a panel that
    /// read every 20 s kept what moved from ever being written.
    @Test mutating func aReaderEveryTwentySecondsPutsOffNoSave() {
        schedule.entryMade(at: start, untilMidnight: Self.noon)
        let due = schedule.nextTake
        for read in 1...4 {
            let now = start + .seconds(20 * Int64(read) - 5)
            guard !schedule.isDue(at: now) else { break }
            schedule.taken(at: now, saving: false, stillMoving: true, untilMidnight: Self.noon)
            #expect(schedule.nextTake == due, "the \(read)th question moved the save")
        }
        #expect(schedule.isDue(at: start + .seconds(60)))
    }

    @Test mutating func aTakeAtMidnightCountsForTheDayThatEndsHoweverLateTheLoopWoke() {
        let midnight = start + .seconds(30)
        schedule.entryMade(at: start, untilMidnight: .seconds(30))
        #expect(schedule.nextTake == midnight && schedule.nextTakeEndsDay)
        let wallClockAtStart: UInt64 = 1_790_000_000_000_000
        // The loop woke 2 s late: the bytes count at a microsecond before midnight.
        let late = midnight + .seconds(2)
        let counted = schedule.dayWallClock(wallClockAtStart + 32_000_000, at: late)
        #expect(counted == wallClockAtStart + 30_000_000 - 1)
        // Any other take counts at its own time.
        schedule.taken(at: late, saving: true, stillMoving: true, untilMidnight: .seconds(86_398))
        #expect(!schedule.nextTakeEndsDay)
        #expect(schedule.dayWallClock(wallClockAtStart + 40_000_000, at: late + .seconds(8))
            == wallClockAtStart + 40_000_000)
    }

    @Test mutating func aQuarterOfTheMapWithinTheMinuteIsTakenAtOnce() {
        var tookNow = false
        for entry in 0..<10 {
            tookNow = schedule.entryMade(at: start + .seconds(Int64(entry)), untilMidnight: Self.noon)
            #expect(tookNow == (entry == 9), "entry \(entry)")
        }
        #expect(schedule.isDue(at: start + .seconds(9)) && !schedule.nextTakeEndsDay)
        // The count starts again at each take.
        schedule.taken(at: start + .seconds(9), saving: true, stillMoving: true, untilMidnight: Self.noon)
        let tookAgain = schedule.entryMade(at: start + .seconds(10), untilMidnight: Self.noon)
        #expect(!tookAgain)
    }
}

/// What an entry that stays in the kernel adds at each take: what moved since the last.
@Suite("The kernel's staying counts, in memory")
struct StayingCountsTests {
    @Test func eachTakeAddsWhatMovedSinceTheLastAndAMadeAgainEntryStartsFromZero() {
        var staying = StayingCounts<String>()
        #expect(staying.moved("app", counted: ByteCounts(received: 100, sent: 10), stays: true)
            == ByteCounts(received: 100, sent: 10))
        #expect(staying.moved("app", counted: ByteCounts(received: 250, sent: 10), stays: true)
            == ByteCounts(received: 150, sent: 0))
        // Dropped and made again: smaller totals than were added are new ones.
        #expect(staying.moved("app", counted: ByteCounts(received: 40, sent: 4), stays: true)
            == ByteCounts(received: 40, sent: 4))
        // Its last take, after which the kernel forgets it: what moved since, and nothing kept.
        #expect(staying.moved("app", counted: ByteCounts(received: 90, sent: 4), stays: false)
            == ByteCounts(received: 50, sent: 0))
        #expect(staying.keys.isEmpty)
        #expect(staying.moved("app", counted: ByteCounts(received: 5, sent: 0), stays: false)
            == ByteCounts(received: 5, sent: 0))
    }
}
