import NetworkActivityClient
import NetworkActivityInterface
import Testing
@testable import NetActivityCommand

/// `netactivity usage`'s table sums what the service answers: counts past what 64 bits hold stop at the most,
/// and the command goes on.
@Suite struct UsageTableTests {
    @Test func sumsPastSixtyFourBitsStopAtTheMost() {
        let rows = ["Home Wi-Fi", "Phone hotspot"].map { network in
            AppDataUsage(UsageRecord(application: "backup", label: "Backup", user: 1000, network: network,
                                     isMetered: network == "Phone hotspot", received: .max / 2 + 1, sent: 1,
                                     day: "2026-12-02", privateTo: 1000))
        }
        let table = UsageReport.table(rows)
        #expect(table.contains("Backup"), "\(table)")
        #expect(table.contains("Phone hotspot (metered)"), "\(table)")
        #expect(table.contains("100 %"), "\(table)")
    }
}
