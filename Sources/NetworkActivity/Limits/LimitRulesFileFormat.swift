// SPDX-License-Identifier: Apache-2.0

/// The text of the limits file, in which the system service keeps `LimitRules` across restarts
/// (`docs/netactivityd.md`, "Speed limits"): a line that names the format, then one line a rule, its fields
/// split by tabs (an app id holds no control character):
///
/// ```
/// netactivity limits 2
/// 1000	firefox-esr	2000000	-	-
/// 1000	org.gnome.Maps	-	-	over-plan
/// 0	apt-daily.service	-	500000	-
/// ```
///
/// The user, the app id, bytes a second down and up (`-` for none), then `over-plan` for an app exempted from
/// data plans (`-` otherwise). The first version's lines lack the last field, and are read as before. Written
/// whole at each change (`AtomicFile`); a file that does not read whole is damaged, and none of it is believed.
public enum LimitRulesFileFormat {
    static let header = "netactivity limits 2"
    /// Before exemptions from data plans.
    static let firstHeader = "netactivity limits 1"
    static let exempt = "over-plan"

    /// The largest file believed: 16 MiB, some sixty users' rules at their fullest.
    public static let maximumSize = 16 << 20

    public static func encode(_ rules: LimitRules) -> String {
        var lines = [header]
        for user in rules.byUser.keys.sorted() {
            for (application, limit) in rules.rules(of: user) {
                let rates = [limit.down, limit.up].map { $0.map(String.init) ?? "-" }
                lines.append(([String(user), application] + rates + [limit.exemptFromPlans ? exempt : "-"])
                    .joined(separator: "\t"))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The rules the text holds; nil when it is damaged (another header, a line that does not read, a rule out of
    /// range or one too many).
    public static func decode(_ text: String) -> LimitRules? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first, first == Substring(header) || first == Substring(firstHeader), lines.last == ""
        else { return nil }
        let fieldCount = first == Substring(header) ? 5 : 4
        lines = Array(lines.dropFirst().dropLast())
        var rules = LimitRules()
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == fieldCount, let user = UInt32(fields[0]) else { return nil }
            func rate(_ field: Substring) -> UInt64?? {
                field == "-" ? .some(nil) : UInt64(field).flatMap { $0 == 0 ? nil : .some($0) }
            }
            let exemptField = fieldCount == 5 ? fields[4] : "-"
            guard exemptField == "-" || exemptField == Substring(exempt),
                  let down = rate(fields[2]), let up = rate(fields[3]),
                  down != nil || up != nil || exemptField != "-",
                  rules.limit(of: String(fields[1]), user: user) == nil,
                  (try? rules.change(String(fields[1]), of: user, down: down ?? 0, up: up ?? 0,
                                     exemptFromPlans: exemptField != "-")) != nil
            else { return nil }
        }
        return rules
    }
}
