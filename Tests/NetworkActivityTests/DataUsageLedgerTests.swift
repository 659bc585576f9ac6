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
        usage.add(UsageBytes(received: 100, sent: 10), to: Self.entry("firefox-esr"), label: "Firefox")
        usage.add(UsageBytes(received: 50, sent: 5), to: Self.entry("firefox-esr"), label: "Firefox ESR")
        usage.add(UsageBytes(received: 500), to: Self.entry("apt-daily.service", privateTo: nil, network: "eth0",
                                                            metered: false), label: "apt-daily.service")
        usage.add(UsageBytes(), to: Self.entry("nothing"), label: "nothing")
        let rows = usage.rows(since: nil, readableBy: 1000, serviceUser: 999)
        #expect(rows.map(\.entry.application) == ["apt-daily.service", "firefox-esr"])
        #expect(rows.last?.bytes == UsageBytes(received: 150, sent: 15) && rows.last?.label == "Firefox ESR")
    }

    /// A month's table needs one row per app and network, not one per day: the service sums the days.
    @Test func withoutDailyEachAppsDaysAreSummedInARowOfTheFirstDay() {
        var usage = DataUsage()
        for back in 0..<3 {
            usage.add(UsageBytes(received: 10, sent: 1), to: Self.entry("app", day: Self.day.adding(days: -back)),
                      label: "App")
        }
        usage.add(UsageBytes(received: 5), to: Self.entry("app", network: "eth0", metered: false), label: "App")
        let since = Self.day.adding(days: -1)
        let summed = usage.rows(since: since, daily: false, readableBy: 1000, serviceUser: 999)
        #expect(summed.map(\.bytes) == [UsageBytes(received: 20, sent: 2), UsageBytes(received: 5)])
        #expect(summed.allSatisfy { $0.entry.day == since })
        #expect(usage.rows(since: since, daily: true, readableBy: 1000, serviceUser: 999).count == 3)
        let all = usage.rows(since: nil, daily: false, readableBy: 1000, serviceUser: 999)
        #expect(all.first?.bytes == UsageBytes(received: 30, sent: 3) && all.first?.entry.day == Self.day.adding(days: -2))
    }

    @Test func aUserReadsTheirOwnAppsAndTheMachinesNeverAnothersAndClearsOnlyTheirOwn() {
        var usage = DataUsage()
        usage.add(UsageBytes(received: 1), to: Self.entry("mine"), label: "mine")
        usage.add(UsageBytes(received: 2), to: Self.entry("theirs", user: 1001, privateTo: 1001), label: "theirs")
        usage.add(UsageBytes(received: 3), to: Self.entry("apt", user: 0, privateTo: nil), label: "apt")
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
            usage.add(UsageBytes(received: 1), to: Self.entry("app", day: Self.day.adding(days: -back)), label: "app")
        }
        let dropped = usage.dropOldDays(today: Self.day)
        #expect(dropped)
        let days = Set(usage.rows.keys.map(\.day))
        #expect(days.count == 90 && days.min() == Self.day.adding(days: -89) && days.max() == Self.day)
        let droppedAgain = usage.dropOldDays(today: Self.day)
        #expect(!droppedAgain)
        #expect(usage.rows(since: Self.day.adding(days: -1), readableBy: 0, serviceUser: 999).count == 2)
    }

    @Test func aDayPastItsBoundAddsTheRestToOtherAppsLosingNoByte() {
        var usage = DataUsage()
        for number in 0..<(DataUsage.maximumRowsPerDay + 10) {
            usage.add(UsageBytes(received: 1), to: Self.entry("app-\(number)"), label: "app")
        }
        #expect(usage.rows.count == DataUsage.maximumRowsPerDay + 1)
        #expect(usage.rows[Self.entry(DataUsage.otherApps)] == UsageBytes(received: 10))
        #expect(usage.rows.values.reduce(0) { $0 + $1.received } == UInt64(DataUsage.maximumRowsPerDay + 10))
        // A row already kept still adds up.
        usage.add(UsageBytes(received: 5), to: Self.entry("app-0"), label: "app")
        #expect(usage.rows[Self.entry("app-0")] == UsageBytes(received: 6))
    }

    /// The file at 90 days of 200 apps on 3 networks, and its bound at 90 days of full days.
    @Test func theFileRoundTripsAndStaysWithinItsBound() throws {
        var usage = DataUsage(keptDays: 90)
        for back in 0..<90 {
            for app in 0..<200 {
                for network in ["Phone hotspot", "Home Wi-Fi", "eth0"] {
                    usage.add(UsageBytes(received: UInt64(app * 1_000 + back), sent: 7),
                              to: Self.entry("org.example.App\(app)", day: Self.day.adding(days: -back),
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
        #expect(UsageFileFormat.maximumSize(keptDays: 90) < 150_000_000)
        var damaged = bytes
        damaged[damaged.count / 2] ^= 0xFF
        #expect(UsageFileFormat.decode(damaged, keptDays: 90) == nil)
        #expect(UsageFileFormat.decode(Array(bytes.dropLast(3)), keptDays: 90) == nil)
    }
}
