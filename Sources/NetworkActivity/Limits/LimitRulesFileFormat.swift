// SPDX-License-Identifier: Apache-2.0

/// The text of the limits file, in which the system service keeps `LimitRules` across restarts
/// (`docs/netactivityd.md`, "Speed limits"): a line that names the format, then one line for each user whose data
/// saver is on, then one line a rule, their fields split by tabs (an app id holds no control character):
///
/// ```
/// netactivity limits 3
/// saver	1000
/// 1000	firefox-esr	2000000	-	-	-
/// 1000	org.gnome.Maps	-	-	over-plan	allow
/// 1000	steam	-	-	-	pause
/// 0	apt-daily.service	-	500000	-	-
/// ```
///
/// A rule's fields: the user, the app id, bytes a second down and up (`-` for none), `over-plan` for an app
/// exempted from data plans (`-` otherwise), then what it does on a metered network (`MeteredRule.word`, `-` for
/// what the saver says). The first version's lines lack the last two fields, the second's the last; both are read
/// as before. Written whole at each change (`AtomicFile`); a file that does not read whole is damaged, and none of
/// it is believed.
public enum LimitRulesFileFormat {
    static let header = "netactivity limits 3"
    /// Before metered networks, and before exemptions from data plans.
    static let olderHeaders = ["netactivity limits 2": 5, "netactivity limits 1": 4]
    static let exempt = "over-plan"
    static let saver = "saver"

    /// The largest file believed: 16 MiB, some sixty users' rules at their fullest.
    public static let maximumSize = 16 << 20

    public static func encode(_ rules: LimitRules) -> String {
        var lines = [header]
        for user in rules.saverUsers.sorted() { lines.append("\(saver)\t\(user)") }
        for user in rules.byUser.keys.sorted() {
            for (application, limit) in rules.rules(of: user) {
                let rates = [limit.down, limit.up].map { $0.map(String.init) ?? "-" }
                let flags = [limit.exemptFromPlans ? exempt : "-", limit.onMetered?.word ?? "-"]
                lines.append(([String(user), application] + rates + flags).joined(separator: "\t"))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The rules the text holds; nil when it is damaged (another header, a line that does not read, a rule out of
    /// range or one too many).
    public static func decode(_ text: String) -> LimitRules? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first.map(String.init), lines.last == "",
              let fieldCount = first == header ? 6 : olderHeaders[first]
        else { return nil }
        lines = Array(lines.dropFirst().dropLast())
        var rules = LimitRules()
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            if fieldCount == 6, fields.count == 2, fields[0] == Substring(saver), let user = UInt32(fields[1]) {
                guard rules.setSaver(true, for: user) else { return nil }
                continue
            }
            guard fields.count == fieldCount, let user = UInt32(fields[0]) else { return nil }
            func rate(_ field: Substring) -> UInt64?? {
                field == "-" ? .some(nil) : UInt64(field).flatMap { $0 == 0 ? nil : .some($0) }
            }
            let exemptField = fieldCount >= 5 ? fields[4] : "-"
            let meteredField = fieldCount == 6 ? fields[5] : "-"
            let onMetered = meteredField == "-" ? nil : MeteredRule(word: meteredField)
            guard exemptField == "-" || exemptField == Substring(exempt),
                  meteredField == "-" || onMetered != nil,
                  let down = rate(fields[2]), let up = rate(fields[3]),
                  down != nil || up != nil || exemptField != "-" || onMetered != nil,
                  rules.limit(of: String(fields[1]), user: user) == nil,
                  (try? rules.change(String(fields[1]), of: user, down: down ?? 0, up: up ?? 0,
                                     exemptFromPlans: exemptField != "-", onMetered: .some(onMetered))) != nil
            else { return nil }
        }
        return rules
    }
}
