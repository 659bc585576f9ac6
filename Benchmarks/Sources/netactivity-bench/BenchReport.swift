// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The benchmark's figures in the order they are printed, each with its unit and, for a time or a rate, its
/// ratio to the bus driver's own `GetId` round trip measured in the same run.
struct BenchReport {
    enum Unit: String {
        case microseconds = "µs", perSecond = "/s", kibibytes = "KiB", milliseconds = "ms"
    }

    struct Figure {
        let key: String
        let label: String
        let value: Double
        let unit: Unit
        /// The figure over the yardstick: times in GetId round trips, rates in GetId calls per second.
        let yardstickRatio: Double?
    }

    private(set) var figures: [Figure] = []
    private let yardstickMicroseconds: Double
    private let yardstickRate: Double

    init(yardstick: Latencies) {
        yardstickMicroseconds = yardstick.p50.microseconds
        yardstickRate = yardstick.perSecond ?? 0
    }

    mutating func time(_ key: String, _ label: String, _ value: Duration, unit: Unit = .microseconds) {
        let microseconds = value.microseconds
        figures.append(Figure(key: key, label: label, value: unit == .milliseconds ? microseconds / 1000 : microseconds,
                              unit: unit, yardstickRatio: microseconds / yardstickMicroseconds))
    }

    mutating func rate(_ key: String, _ label: String, _ value: Double) {
        figures.append(Figure(key: key, label: label, value: value, unit: .perSecond,
                              yardstickRatio: value / yardstickRate))
    }

    /// CPU time per operation: no ratio, since the yardstick's CPU is the bus's, not the daemon's.
    mutating func cpu(_ key: String, _ label: String, _ value: Duration) {
        figures.append(Figure(key: key, label: label, value: value.microseconds, unit: .microseconds, yardstickRatio: nil))
    }

    mutating func memory(_ key: String, _ label: String, _ kib: Int) {
        figures.append(Figure(key: key, label: label, value: Double(kib), unit: .kibibytes, yardstickRatio: nil))
    }

    /// A plain-text table: figure, value, unit, and the ratio to GetId.
    func table(title: String) -> String {
        let width = figures.map(\.label.count).max() ?? 0
        var lines = [title, "", "\("figure".padded(width))  \("value".leftPadded(12))  unit  × GetId"]
        for figure in figures {
            let ratio = figure.yardstickRatio.map { String(format: "%.2f", $0) } ?? ""
            lines.append("\(figure.label.padded(width))  \(format(figure.value).leftPadded(12))  "
                         + "\(figure.unit.rawValue.padded(4))  \(ratio)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{"figures": {key: value}, "units": {key: unit}, "getid_ratios": {key: ratio}, …}`.
    func json(context: [String: Any]) throws -> String {
        var object = context
        object["figures"] = Dictionary(uniqueKeysWithValues: figures.map { ($0.key, $0.value) })
        object["units"] = Dictionary(uniqueKeysWithValues: figures.map { ($0.key, $0.unit.rawValue) })
        object["getid_ratios"] = Dictionary(uniqueKeysWithValues: figures.compactMap { figure in
            figure.yardstickRatio.map { (figure.key, $0) }
        })
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private func format(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f", value) : String(format: "%.1f", value)
    }
}

extension String {
    fileprivate func padded(_ width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }

    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
