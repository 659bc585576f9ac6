import ProgramSupport
import Testing
@testable import NetworkActivity

/// The data-usage totals in memory: days, rows per app, user, network and day, the bound, who reads and clears
/// what, and the file they are kept in.
@Suite("Data usage totals")
struct DataUsageLedgerTests {
    static let day = UsageDay("2026-11-28")!

    static func entry(_ app: String, day: UsageDay = day, user: UInt32 = 1000, privateTo: UInt32? = 1000,
                      network: String = "Phone hotspot", metered: Bool = true) -> UsageEntry {
        UsageEntry(day: day, user: user, privateTo: privateTo, application: app, network: network, metered: metered)
    }

    @Test func daysAreCalendarDaysWithTheirWeeksAndMonths() {
        #expect(UsageDay(daysSinceEpoch: 0).description == "1970-01-01")
        #expect(Self.day.daysSinceEpoch == 20_785)
        #expect(UsageDay(daysSinceEpoch: Self.day.daysSinceEpoch) == Self.day)
        #expect(UsageDay("2024-02-29")?.adding(days: 1).description == "2024-03-01")
        #expect(UsageDay("2023-02-29") == nil && UsageDay("2026-13-01") == nil && UsageDay("26-11-28") == nil)
        // 2026-11-28 is a Saturday: its week began on Monday the 23rd.
        #expect(Self.day.weekStart.description == "2026-11-23" && Self.day.monthStart.description == "2026-11-01")
        #expect(UsageDay("2026-11-23")!.weekStart.description == "2026-11-23")
    }

    @Test func bytesAddUpPerAppNetworkAndDayAndTheMostComeFirst() {
        var usage = DataUsage()
        usage.add(ByteCounts(received: 100, sent: 10), to: Self.entry("firefox-esr"), label: "Firefox")
        usage.add(ByteCounts(received: 50, sent: 5), to: Self.entry("firefox-esr"), label: "Firefox ESR")
        usage.add(ByteCounts(received: 500), to: Self.entry("apt-daily.service", privateTo: nil, network: "eth0",
                                                            metered: false), label: "apt-daily.service")
        usage.add(ByteCounts(), to: Self.entry("nothing"), label: "nothing")
        let rows = usage.rows(since: nil, readableBy: 1000, serviceUser: 999)
        #expect(rows.map(\.entry.application) == ["apt-daily.service", "firefox-esr"])
        #expect(rows.last?.bytes == ByteCounts(received: 150, sent: 15) && rows.last?.label == "Firefox ESR")
    }

    /// A month's table needs one row per app and network, not one per day: the service sums the days.
    @Test func withoutDailyEachAppsDaysAreSummedInARowOfTheFirstDay() {
        var usage = DataUsage()
        for back in 0..<3 {
            usage.add(ByteCounts(received: 10, sent: 1), to: Self.entry("app", day: Self.day.adding(days: -back)),
                      label: "App")
        }
        usage.add(ByteCounts(received: 5), to: Self.entry("app", network: "eth0", metered: false), label: "App")
        let since = Self.day.adding(days: -1)
        let summed = usage.rows(since: since, daily: false, readableBy: 1000, serviceUser: 999)
        #expect(summed.map(\.bytes) == [ByteCounts(received: 20, sent: 2), ByteCounts(received: 5)])
        #expect(summed.allSatisfy { $0.entry.day == since })
        #expect(usage.rows(since: since, daily: true, readableBy: 1000, serviceUser: 999).count == 3)
        let all = usage.rows(since: nil, daily: false, readableBy: 1000, serviceUser: 999)
        #expect(all.first?.bytes == ByteCounts(received: 30, sent: 3) && all.first?.entry.day == Self.day.adding(days: -2))
    }

    @Test func aUserReadsTheirOwnAppsAndTheMachinesNeverAnothersAndClearsOnlyTheirOwn() {
        var usage = DataUsage()
        usage.add(ByteCounts(received: 1), to: Self.entry("mine"), label: "mine")
        usage.add(ByteCounts(received: 2), to: Self.entry("theirs", user: 1001, privateTo: 1001), label: "theirs")
        usage.add(ByteCounts(received: 3), to: Self.entry("apt", user: 0, privateTo: nil), label: "apt")
        #expect(Set(usage.rows(since: nil, readableBy: 1000, serviceUser: 999).map(\.entry.application)) == ["mine", "apt"])
        #expect(usage.rows(since: nil, readableBy: 0, serviceUser: 999).count == 3)
        #expect(usage.rows(since: nil, readableBy: 999, serviceUser: 999).count == 3)
        #expect(usage.rows(since: nil, readableBy: nil, serviceUser: 999).map(\.entry.application) == ["apt"])

        let byStranger = usage.clear(for: 1002, serviceUser: 999)
        let byOwner = usage.clear(for: 1000, serviceUser: 999)
        #expect(byStranger == 0 && byOwner == 1)
        #expect(usage.rows(since: nil, readableBy: 0, serviceUser: 999).map(\.entry.application) == ["apt", "theirs"])
        let byRoot = usage.clear(for: 0, serviceUser: 999)
        #expect(byRoot == 2 && usage.rows.isEmpty)
    }

    @Test func ninetyDaysAreKeptAndOlderOnesDropped() {
        var usage = DataUsage(keptDays: 90)
        for back in 0..<100 {
            usage.add(ByteCounts(received: 1), to: Self.entry("app", day: Self.day.adding(days: -back)), label: "app")
        }
        let dropped = usage.dropOldDays(today: Self.day)
        #expect(dropped)
        let days = Set(usage.rows.keys.map(\.day))
        #expect(days.count == 90 && days.min() == Self.day.adding(days: -89) && days.max() == Self.day)
        let droppedAgain = usage.dropOldDays(today: Self.day)
        #expect(!droppedAgain)
        #expect(usage.rows(since: Self.day.adding(days: -1), readableBy: 0, serviceUser: 999).count == 2)
    }

    @Test func aUserPastTheirBoundAddsTheRestToTheirOtherAppsLosingNoByte() {
        var usage = DataUsage()
        let bound = DataUsage.maximumRowsPerUserAndDay
        for number in 0..<(bound + 10) {
            usage.add(ByteCounts(received: 1), to: Self.entry("app-\(number)"), label: "app")
        }
        #expect(usage.rows.count == bound + 1)
        let folded = Self.entry(DataUsage.otherApps, network: DataUsage.otherNetworks)
        #expect(usage.rows[folded] == ByteCounts(received: 10))
        #expect(usage.rows.values.reduce(0) { $0 + $1.received } == UInt64(bound + 10))
        // A row already kept still adds up.
        usage.add(ByteCounts(received: 5), to: Self.entry("app-0"), label: "app")
        #expect(usage.rows[Self.entry("app-0")] == ByteCounts(received: 6))
        // The folded apps' names are kept nowhere.
        #expect(usage.nameCount == bound + 3, "\(usage.nameCount) names")
        // Another user that day is not crowded out by the first.
        usage.add(ByteCounts(received: 7), to: Self.entry("firefox-esr", user: 1001, privateTo: 1001), label: "Firefox")
        #expect(usage.rows[Self.entry("firefox-esr", user: 1001, privateTo: 1001)] == ByteCounts(received: 7))
    }

    /// The bound with every key varied: users, their apps, their networks, metered or not, private or the
    /// machine's, over days. No day passes `maximumRowsPerDayInAll`, every byte of a user within the bound of
    /// users is theirs, the rest root's, and the names kept are those of the rows kept.
    @Test func theBoundHoldsWithEveryKeyVaried() {
        var usage = DataUsage(keptDays: 3)
        var sent: [UInt32: UInt64] = [:]
        var total: UInt64 = 0
        let users = DataUsage.maximumGroupsPerDay + 30
        for back in 0..<4 {
            let day = Self.day.adding(days: -back)
            for user in 0..<users {
                let uid = UInt32(1_000 + user)
                // One user starts apps by the thousand, on networks by the dozen; the rest a few.
                let apps = user == 7 ? 1_500 : 6
                for app in 0..<apps {
                    let network = "net-\(app % (user == 7 ? 40 : 3))"
                    let bytes = UInt64(1 + app % 5)
                    usage.add(ByteCounts(received: bytes), to: UsageEntry(
                        day: day, user: uid, privateTo: app % 2 == 0 ? uid : nil, application: "app-\(user)-\(app)",
                        network: network, metered: app % 3 == 0), label: "App \(app)")
                    if back < 3 { sent[uid, default: 0] += bytes; total += bytes }
                }
            }
        }
        usage.dropOldDays(today: Self.day)
        let rows = usage.rows
        let byDay = Dictionary(grouping: rows, by: \.key.day)
        #expect(byDay.count == 3)
        for (day, dayRows) in byDay {
            #expect(dayRows.count <= DataUsage.maximumRowsPerDayInAll, "\(day): \(dayRows.count) rows")
        }
        #expect(rows.values.reduce(0) { $0 + $1.received } == total, "no byte is lost")
        // Each user within the day's bound of users has all their bytes, user 7 too.
        var counted: [UInt32: UInt64] = [:]
        for (entry, bytes) in rows { counted[entry.user, default: 0] += bytes.received }
        for user in [UInt32(1_000), 1_007, 1_050] { #expect(counted[user] == sent[user], "user \(user)") }
        #expect(rows.keys.contains { $0.application == DataUsage.otherUsers && $0.privateTo == 0 })
        // User 7's own share, and no more.
        let seventh = byDay[Self.day]!.filter { $0.key.user == 1_007 && $0.key.application != DataUsage.otherApps }
        #expect(seventh.count <= 2 * DataUsage.maximumRowsPerUserAndDay, "\(seventh.count)")
        let names = Set(rows.keys.flatMap { [$0.application, $0.network] })
        #expect(usage.nameCount == names.count, "\(usage.nameCount) names kept for \(names.count) in use")
        let bytes = UsageFileFormat.encode(usage)
        #expect(bytes.count <= UsageFileFormat.maximumSize(keptDays: 3))
        #expect(UsageFileFormat.decode(bytes, keptDays: 3) == usage)
    }

    @Test func namesGoWithTheirDaysAndAClear() {
        var usage = DataUsage(keptDays: 2)
        usage.add(ByteCounts(received: 1), to: Self.entry("old-app", day: Self.day.adding(days: -2), network: "Old Wi-Fi"),
                  label: "Old")
        usage.add(ByteCounts(received: 1), to: Self.entry("new-app"), label: "New")
        usage.add(ByteCounts(received: 1), to: Self.entry("theirs", user: 1001, privateTo: 1001, network: "Their LAN"),
                  label: "Theirs")
        #expect(usage.nameCount == 6)
        usage.dropOldDays(today: Self.day)
        #expect(usage.nameCount == 4 && usage.labels.keys.sorted() == ["new-app", "theirs"])
        #expect(usage.clear(for: 1001, serviceUser: 999) == 1)
        #expect(usage.nameCount == 2 && usage.rows.keys.map(\.application) == ["new-app"])
        // Added again after the pruning, names number afresh and rows read right.
        usage.add(ByteCounts(received: 2), to: Self.entry("new-app"), label: "New")
        usage.add(ByteCounts(received: 3), to: Self.entry("later"), label: "Later")
        #expect(usage.rows[Self.entry("new-app")] == ByteCounts(received: 3)
                && usage.rows[Self.entry("later")] == ByteCounts(received: 3))
    }

    /// A wall clock set a year ahead and back (a first NTP sync) drops no kept day; one that stays ahead, as
    /// after weeks of suspend, is believed within the hour.
    @Test func aClockThatJumpsAheadAndBackLosesNoKeptDay() {
        let start = MonotonicTime(microseconds: 1_000_000)
        var today = TrustedToday(newestKept: Self.day, at: start)
        let first = today.today(wallDay: Self.day, at: start)
        #expect(first == Self.day)
        let yearAhead = Self.day.adding(days: 365)
        let minuteLater = start + .seconds(60)
        let allowed = today.today(wallDay: yearAhead, at: minuteLater)
        #expect(allowed <= Self.day.adding(days: 1), "\(allowed)")
        var usage = DataUsage(keptDays: 90)
        usage.add(ByteCounts(received: 1), to: Self.entry("app", day: Self.day.adding(days: -30)), label: "app")
        let dropped = usage.dropOldDays(today: allowed)
        #expect(!dropped)
        let back = today.today(wallDay: Self.day, at: minuteLater + .seconds(60))
        #expect(back == Self.day)
        // A day's passing is believed at once: midnight came.
        let midnight = today.today(wallDay: Self.day.adding(days: 1), at: minuteLater + .seconds(120))
        #expect(midnight == Self.day.adding(days: 1))
        // Three weeks ahead, and staying: believed after an hour.
        let suspended = Self.day.adding(days: 22)
        let woke = minuteLater + .seconds(180)
        let atWake = today.today(wallDay: suspended, at: woke)
        let justBefore = today.today(wallDay: suspended, at: woke + .seconds(3_599))
        let anHourOn = today.today(wallDay: suspended, at: woke + TrustedToday.aheadBelievedAfter)
        #expect(atWake < suspended && justBefore < suspended && anHourOn == suspended)
        // A service that starts with the clock far ahead of its file's newest day holds back too.
        var started = TrustedToday(newestKept: Self.day, at: start)
        let atStart = started.today(wallDay: yearAhead, at: start)
        #expect(atStart == Self.day.adding(days: 1))
        var fresh = TrustedToday(newestKept: nil, at: start)
        let freshToday = fresh.today(wallDay: yearAhead, at: start)
        #expect(freshToday == yearAhead)
    }

    /// The file at 90 days of 200 apps of two users on 3 networks, and its bound at 90 days of full days.
    @Test func theFileRoundTripsAndStaysWithinItsBound() throws {
        var usage = DataUsage(keptDays: 90)
        for back in 0..<90 {
            for app in 0..<200 {
                for network in ["Phone hotspot", "Home Wi-Fi", "eth0"] {
                    usage.add(ByteCounts(received: UInt64(app * 1_000 + back), sent: 7),
                              to: Self.entry("org.example.App\(app)", day: Self.day.adding(days: -back),
                                             user: 1000 + UInt32(app % 2), privateTo: 1000 + UInt32(app % 2),
                                             network: network, metered: network == "Phone hotspot"),
                              label: "Example app \(app)")
                }
            }
        }
        let bytes = UsageFileFormat.encode(usage)
        // 41 bytes a row, and each name once: about 2.2 MB.
        #expect(bytes.count > 54_000 * 41 && bytes.count < 2_300_000, "\(bytes.count) bytes for 54,000 rows")
        #expect(bytes.count < UsageFileFormat.maximumSize(keptDays: 90))
        #expect(UsageFileFormat.decode(bytes, keptDays: 90) == usage)
        #expect(UsageFileFormat.maximumSize(keptDays: 90) < 180_000_000)
        var damaged = bytes
        damaged[damaged.count / 2] ^= 0xFF
        #expect(UsageFileFormat.decode(damaged, keptDays: 90) == nil)
        #expect(UsageFileFormat.decode(Array(bytes.dropLast(3)), keptDays: 90) == nil)
    }
}
