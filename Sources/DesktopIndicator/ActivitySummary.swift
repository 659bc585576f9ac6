// SPDX-License-Identifier: Apache-2.0
import Localization

/// The active activities as one line for people, such as "3 active: mail, backup, sync".
public struct ActivitySummary: Sendable, Equatable {
    /// How many labels are named before the rest are counted ("and 4 more").
    public static let namedLabels = 5
    /// Labels longer than this many characters are cut, with an ellipsis: a label may be 256 bytes long.
    public static let labelLength = 40
    /// What a person reads for an activity begun with an empty label.
    public static var noLabel: String { localized("(no label)") }
    /// The text when nothing is active.
    public static var idleText: String { localized("No network activity") }

    /// How many activities are active.
    public var count: Int
    /// Their labels, in the order they began; may be empty when the labels were not read.
    public var labels: [String]

    public init(count: Int, labels: [String]) {
        self.count = count
        self.labels = labels
    }

    /// A label as a person reads it, wherever the project shows one: the empty one named, long ones cut.
    public static func displayed(_ label: String) -> String {
        if label.isEmpty { return noLabel }
        guard label.count > labelLength else { return label }
        return label.prefix(labelLength - 1) + "…"
    }

    /// Every label as a person reads it, one per line, escaped for hosts that read markup: the tray's
    /// notification body and waybar's tooltip.
    public static func markupList(_ labels: [String]) -> String {
        labels.map { displayed($0).markupEscaped }.joined(separator: "\n")
    }

    /// "3 active: mail, backup, sync", "7 active: a, b, c, d, e and 2 more", "1 active" when the labels are
    /// unknown, and `idleText` when nothing is active. Plain text; escape it for hosts that read markup.
    public var text: String {
        guard count > 0 else { return Self.idleText }
        guard !labels.isEmpty else { return Self.activeCount(count) }
        let named = labels.prefix(Self.namedLabels).map(Self.displayed).joined(separator: ", ")
        let rest = count - min(count, labels.prefix(Self.namedLabels).count)
        // TRANSLATORS: the count of activities, the first labels, and how many more: "7 active: a, b, c, d, e and 2 more".
        return rest > 0 ? localizedPlural("%d active: %s and %d more", "%d active: %s and %d more", count: count,
                                          count, named, rest)
            : localizedPlural("%d active: %s", "%d active: %s", count: count, count, named)
    }

    /// "3 active": the menu's first row, and the tooltip while the activities are not yet read.
    public static func activeCount(_ count: Int) -> String {
        // TRANSLATORS: how many network activities are going on: the tray menu's first row.
        localizedPlural("%d active", "%d active", count: count)
    }

    /// "and 4 more": past the activities a list names.
    public static func andMore(_ count: Int) -> String {
        localizedPlural("and %d more", "and %d more", count: count)
    }
}
