import DesktopIndicator
import Foundation
import NetworkActivityClient
import NetworkActivityInterface
import Testing

/// The overall percent, amounts, ages, speed limits and the data plans' notifications against `Tests/Cases/indicator-rules.json`: the table that the GNOME
/// Shell extension's rules are tested against too (`ShellExtensionTests`), so that the two cannot drift apart.
@Suite struct IndicatorRulesTests {
    static func table(_ name: String) -> [[String: Any]] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Cases/indicator-rules.json")
        let data = (try? Data(contentsOf: url)) ?? Data()
        let cases = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        return cases?[name] as? [[String: Any]] ?? []
    }

    @Test func theTableIsThere() {
        #expect(!Self.table("overallPercent").isEmpty && !Self.table("byteAmount").isEmpty
                && !Self.table("elapsed").isEmpty && !Self.table("limitText").isEmpty
                && !Self.table("limitPresets").isEmpty && !Self.table("wholeRate").isEmpty
                && !Self.table("planWarnings").isEmpty)
    }

    @Test func overallPercent() {
        for (index, example) in Self.table("overallPercent").enumerated() {
            let activities = (example["activities"] as? [[String: Any]] ?? []).enumerated().map { id, fields in
                ActivityStatus(ActivityDetails(
                    id: UInt32(id + 1), label: "", owner: ":1.1", startedAt: 0, user: 1000,
                    percent: (fields["percent"] as? NSNumber)?.uint32Value,
                    done: (fields["done"] as? NSNumber)?.uint64Value, total: (fields["total"] as? NSNumber)?.uint64Value))
            }
            let expected = (example["percent"] as? NSNumber)?.uint32Value
            #expect(OverallProgress.percent(of: activities) == expected, "case \(index): \(example)")
        }
    }

    @Test func byteAmounts() {
        for example in Self.table("byteAmount") {
            let bytes = (example["bytes"] as? NSNumber)?.uint64Value ?? 0
            #expect(ByteAmount.text(bytes) == example["text"] as? String, "\(example)")
        }
    }

    @Test func ages() {
        for example in Self.table("elapsed") {
            let seconds = (example["seconds"] as? NSNumber)?.int64Value ?? 0
            #expect(ElapsedTime.coarse(.seconds(seconds)) == example["text"] as? String, "\(example)")
        }
    }

    @Test func speedLimits() {
        for example in Self.table("limitText") {
            let status = ActivityStatus(ActivityDetails(
                id: 1, label: "", owner: ":1.1", startedAt: 0, user: 1000,
                limitDown: (example["down"] as? NSNumber)?.uint64Value, limitUp: (example["up"] as? NSNumber)?.uint64Value))
            #expect(status.limitText == example["text"] as? String, "\(example)")
        }
    }

    @Test func limitPresets() throws {
        for example in Self.table("limitPresets") {
            var details = ActivityDetails(
                id: 1, label: "Steam", owner: ":1.1", startedAt: 0, user: 1000, application: "steam",
                limitDown: (example["down"] as? NSNumber)?.uint64Value, limitUp: (example["up"] as? NSNumber)?.uint64Value)
            details.isPaused = false
            details.limitOnMetered = (example["metered"] as? String) ?? (example["metered"] as? NSNumber)?.stringValue
            let presets = try #require(LimitPresets(of: ActivityStatus(details)))
            #expect(presets.chosenRate == (example["chosen"] as? NSNumber)?.uint64Value, "\(example)")
            #expect(presets.pausesOnMetered == example["pauses"] as? Bool, "\(example)")
            if let labels = example["labels"] as? [String] {
                #expect(LimitPresets.rates.map(LimitPresets.label(ofRate:)) == labels)
            }
        }
    }

    @Test func wholeRates() {
        for example in Self.table("wholeRate") {
            #expect(ByteAmount.wholeRate((example["bytes"] as? NSNumber)?.uint64Value ?? 0) == example["text"] as? String,
                    "\(example)")
        }
    }

    /// Each scenario's steps in order, from the scenario's notifications shown: what each step tells.
    @Test func planWarnings() {
        for scenario in Self.table("planWarnings") {
            var warnings = PlanWarnings(shown: Set(scenario["shown"] as? [String] ?? []))
            for (index, step) in (scenario["steps"] as? [[String: Any]] ?? []).enumerated() {
                let plans = (step["plans"] as? [[String: Any]] ?? []).map { fields in
                    NetworkDataPlan(PlanRecord(
                        network: fields["network"] as? String ?? "",
                        settings: PlanSettings(cap: (fields["cap"] as? NSNumber)?.uint64Value ?? 0, period: "month"),
                        used: (fields["used"] as? NSNumber)?.uint64Value ?? 0, since: fields["since"] as? String ?? "",
                        resets: fields["resets"] as? String ?? "",
                        level: (fields["level"] as? String).flatMap(PlanRecord.Level.init(rawValue:))))
                }
                let due = warnings.due(plans).map { ["summary": $0.summary, "body": $0.body] }
                #expect(due == (step["due"] as? [[String: String]] ?? []), "\(scenario["about"] ?? ""), step \(index)")
            }
        }
    }
}
