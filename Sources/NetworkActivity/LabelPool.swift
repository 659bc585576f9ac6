// SPDX-License-Identifier: Apache-2.0
/// One copy of each distinct long label among the live activities.
///
/// A program labels its activities alike ("org.example.Mail: syncing INBOX"), and every label read from a message
/// is a fresh string; a label longer than 15 bytes lives on the heap, so ten thousand of them would cost about
/// 640 KB. Sharing one copy brings that down to one string per distinct label. Short labels are stored inside
/// the string value and need no pooling.
struct LabelPool {
    private var uses: [String: Int] = [:]

    /// The pooled copy of `label`, counted as used once more.
    mutating func intern(_ label: ActivityLabel) -> ActivityLabel {
        guard label.text.utf8.count > 15 else { return label }
        if let index = uses.index(forKey: label.text) {
            uses.values[index] += 1
            return ActivityLabel(trusted: uses.keys[index])
        }
        uses[label.text] = 1
        return label
    }

    /// Counts `times` uses of `label` less, and lets it go after its last.
    mutating func release(_ label: ActivityLabel, times: Int = 1) {
        guard label.text.utf8.count > 15, let index = uses.index(forKey: label.text) else { return }
        if uses.values[index] > times {
            uses.values[index] -= times
        } else {
            uses.remove(at: index)
        }
    }

    mutating func removeAll() {
        uses = [:]
    }
}

/// Counts the releases of one label in a row, so that a caller's hundred activities labelled alike are released
/// from the pool with one lookup, not a hundred.
struct LabelReleases {
    private var label: ActivityLabel?
    private var count = 0

    mutating func add(_ next: ActivityLabel, to pool: inout LabelPool) {
        if next.text != label?.text { finish(&pool) }
        label = next
        count += 1
    }

    mutating func finish(_ pool: inout LabelPool) {
        if let label { pool.release(label, times: count) }
        label = nil
        count = 0
    }
}
