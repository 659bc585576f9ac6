// SPDX-License-Identifier: Apache-2.0
/// Rows of text in columns, each as wide as its widest cell, two spaces apart; the last column is not padded.
enum TextTable {
    static func lines(_ rows: [[String]]) -> [String] {
        guard let first = rows.first else { return [] }
        let widths = first.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            let padded = zip(row, widths).dropLast().map { $0 + String(repeating: " ", count: $1 - $0.count) }
            return (padded + [row[row.count - 1]]).joined(separator: "  ")
        }
    }
}
