import Testing
@testable import NetActivityCommand

/// `netactivity usage --since` takes the days the service takes, and refuses the rest before any call.
@Suite struct UsageDayArgumentTests {
    @Test(arguments: [("2026-02-28", true), ("2024-02-29", true), ("2026-02-31", false), ("2023-02-29", false),
                      ("2026-13-01", false), ("2026-1-01", false), ("26-11-28", false), ("2026-11-28\n", false),
                      ("", false)])
    func sinceIsADayOnTheCalendar(text: String, isDay: Bool) {
        #expect(UsageReport.isDay(text) == isDay)
    }

    @Test func anImpossibleDayIsRefusedByTheCommand() {
        #expect(throws: (any Error).self) { try UsageCommand.parse(["--since", "2026-02-31"]) }
        #expect(throws: Never.self) { try UsageCommand.parse(["--since", "2026-02-28"]) }
    }
}
