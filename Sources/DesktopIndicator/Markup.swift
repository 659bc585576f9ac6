// SPDX-License-Identifier: Apache-2.0
extension String {
    /// The string with `&`, `<` and `>` written as entities, for hosts that read text as markup (Pango, the
    /// StatusNotifierItem tooltip, notification bodies). Labels come from other programs: unescaped, a label's
    /// "<b>" would turn bold and a lone "&" blank the whole text.
    public var markupEscaped: String {
        var escaped = ""
        escaped.reserveCapacity(utf8.count)
        for character in self {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
