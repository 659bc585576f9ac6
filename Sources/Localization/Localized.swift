// SPDX-License-Identifier: Apache-2.0
import CGettext

/// A text for a person, in their language (`Language`): `localized("Recent")`. A text with values has gettext's
/// placeholders, filled in order (`%s`, `%d`) or by number where a translation reorders them (`%2$s`):
/// `localized("Stop %s", label)`. `po/update-template.sh` finds every call by this name, so the text must be a
/// literal.
public func localized(_ text: String, _ values: any CustomStringConvertible...) -> String {
    let translated = text.withCString { message in
        guard let found = dgettext(Language.textDomain, message), found != message else { return text }
        return String(cString: found)
    }
    return values.isEmpty ? translated : Placeholders.fill(translated, with: values.map(\.description))
}

/// A text that says a number, in the form the person's language takes for it: English has two ("1 activity",
/// "2 activities"), Polish three (1, 2-4, 5). `count` fills its first placeholder unless `values` are given.
public func localizedPlural(_ one: String, _ many: String, count: Int, _ values: any CustomStringConvertible...)
    -> String
{
    let english = count == 1 ? one : many
    let translated = one.withCString { singular in
        many.withCString { plural in
            guard let found = dngettext(Language.textDomain, singular, plural, UInt(max(0, count))),
                  found != singular, found != plural else { return english }
            return String(cString: found)
        }
    }
    return Placeholders.fill(translated, with: values.isEmpty ? [String(count)] : values.map(\.description))
}

/// gettext's placeholders as C writes them, which `msgfmt --check` checks in every translation: `%s` and `%d` take
/// the next value, `%1$s` the first, `%%` is a percent sign.
enum Placeholders {
    static func fill(_ template: String, with values: [String]) -> String {
        var result = ""
        var next = 0
        var characters = template[...]
        while let percent = characters.firstIndex(of: "%") {
            result += characters[..<percent]
            characters = characters[characters.index(after: percent)...]
            if characters.first == "%" {
                result += "%"
                characters = characters.dropFirst()
                continue
            }
            let digits = characters.prefix(while: \.isWholeNumber)
            let numbered = !digits.isEmpty && characters.dropFirst(digits.count).first == "$"
            let spec = numbered ? characters.dropFirst(digits.count + 1) : characters
            guard let conversion = spec.first, conversion == "s" || conversion == "d" else {
                result += "%"
                continue
            }
            let index = numbered ? (Int(digits) ?? 0) - 1 : next
            if !numbered { next += 1 }
            characters = spec.dropFirst()
            result += values.indices.contains(index) ? values[index] : ""
        }
        return result + characters
    }
}
