import Foundation
import Testing

/// The contents of the first fenced code block (after skipping `skipping` of them) that follows `heading` in the
/// README, or in another page of the repository's (`docs/tray.md`).
func readmeCodeBlock(after heading: String, skipping: Int = 0, in page: String = "README.md") throws -> String {
    let readme = try String(contentsOf: Paths.repository.appendingPathComponent(page), encoding: .utf8)
    let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex { $0 == heading }, "no \(heading) in \(page)")
    var fences = lines[start...].indices.filter { lines[$0].hasPrefix("```") }
    fences.removeFirst(2 * skipping)
    guard fences.count >= 2 else { throw TestFailure("no code block after \(heading)") }
    return lines[(fences[0] + 1)..<fences[1]].joined(separator: "\n")
}
