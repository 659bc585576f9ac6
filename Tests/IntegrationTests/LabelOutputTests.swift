import Foundation
import ServiceHarness
import Testing

extension Integration {
    /// Labels come from programs we do not control; every output of `netactivity` must carry them so that the
    /// program reading it gets them back exactly.
    @Suite("Labels in every output format")
    struct LabelOutputTests {
        static let labels = [
            #"say "hi""#, #"C:\temp\new"#, "<b>bold</b> & <i>co</i> &amp;", "Überweisung 🚀 日本語", "it's {json}: [1, 2]",
        ]
        let bus: PrivateBus
        let service: DaemonProcess
        let client: RawClient

        init() throws {
            bus = try PrivateBus()
            service = try DaemonProcess(bus: bus)
            client = try RawClient(bus)
            for label in Self.labels { _ = try client.begin(label) }
        }

        /// The first line of `watch --format format` that shows every label's activity.
        private func watchLine(_ format: String, showing expected: (String) throws -> Bool) throws -> String {
            let watch = try BackgroundProcess(Paths.cli, ["watch", "--format", format], bus: bus)
            while let line = try watch.nextLine() {
                if try expected(line) { return line }
            }
            throw TestFailure("watch --format \(format) ended; saw \(watch.lines)")
        }

        @Test func watchJSONCarriesTheLabelsAsJSONStrings() throws {
            let line = try watchLine("json") { try jsonObject($0)["count"] as? Int == Self.labels.count }
            #expect(try jsonObject(line)["labels"] as? [String] == Self.labels)
        }

        @Test func waybarsTooltipIsPangoMarkupWhoseTextIsTheLabels() throws {
            let line = try watchLine("waybar") { try jsonObject($0)["text"] as? String == "⇅ \(Self.labels.count)" }
            let tooltip = try #require(try jsonObject(line)["tooltip"] as? String)
            #expect(try pangoText(tooltip) == Self.labels.joined(separator: "\n"), "\(tooltip)")
        }

        @Test(arguments: [("polybar", "⇅ \(labels.count)"), ("i3blocks", #"{"full_text":"⇅ \#(labels.count)"}"#)])
        func barsShowingTheCountAloneShowIt(format: String, line: String) throws {
            _ = try watchLine(format) { $0 == line }
        }

        @Test func statusJSONCarriesTheLabelsAsJSONStrings() throws {
            let result = try netactivity(bus, "status", "--json")
            let status = try jsonObject(result.stdout.trimmingCharacters(in: .newlines))
            let activities = try #require(status["activities"] as? [[String: Any]], "\(result)")
            #expect(activities.map { $0["label"] as? String } == Self.labels)
        }

        @Test func statusTableEndsEachActivitysRowWithItsLabel() throws {
            let lines = try netactivity(bus, "status").stdout.split(separator: "\n")
            let rows = lines.drop { !$0.hasPrefix("ID ") }.dropFirst()
            #expect(rows.count == Self.labels.count)
            for (row, label) in zip(rows, Self.labels) { #expect(row.hasSuffix("  " + label), "\(row)") }
        }
    }
}

/// The text of Pango markup that has no tags: entities decoded; a raw `<`, `>` or a stray `&` is an error, as in
/// Pango, whose parser rejects the whole string and shows nothing.
private func pangoText(_ markup: String) throws -> String {
    let entities = ["&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&apos;": "'"]
    var text = ""
    var rest = Substring(markup)
    while let character = rest.first {
        switch character {
        case "&":
            guard let (entity, value) = entities.first(where: { rest.hasPrefix($0.key) }) else {
                throw TestFailure("a stray & in \(markup)")
            }
            text += value
            rest = rest.dropFirst(entity.count)
        case "<", ">":
            throw TestFailure("markup \(character) in \(markup)")
        default:
            text.append(character)
            rest = rest.dropFirst()
        }
    }
    return text
}
