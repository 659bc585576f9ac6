// SPDX-License-Identifier: Apache-2.0
import CGettext

/// A text for a person, in their language (`Language`): `localized("Recent")`. A text with values has gettext's
/// placeholders, filled in order (`%s`, `%d`) or by number where a translation reorders them (`%2$s`):
/// `localized("Stop %s", label)`. `po/update-template.sh` finds every call by this name, so the text must be a
/// literal.
public func localized(_ text: String, _ values: any CustomStringConvertible...) -> String {
    Language.prepare()
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
    Language.prepare()
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
/// the next value, `%1$s` the first, `%%` is a percent sign. Read byte by byte: every byte of a placeholder is ASCII.
enum Placeholders {
    static func fill(_ template: String, with values: [String]) -> String {
        let bytes = Array(template.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var next = 0
        var at = 0
        while at < bytes.count {
            guard bytes[at] == UInt8(ascii: "%"), at + 1 < bytes.count else {
                result.append(bytes[at])
                at += 1
                continue
            }
            if bytes[at + 1] == UInt8(ascii: "%") {
                result.append(UInt8(ascii: "%"))
                at += 2
                continue
            }
            var end = at + 1
            var position = 0
            while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) {
                position = position * 10 + Int(bytes[end] - UInt8(ascii: "0"))
                end += 1
            }
            let numbered = end > at + 1 && end < bytes.count && bytes[end] == UInt8(ascii: "$")
            let conversion = numbered ? end + 1 : at + 1
            guard conversion < bytes.count, bytes[conversion] == UInt8(ascii: "s") || bytes[conversion] == UInt8(ascii: "d")
            else {
                result.append(bytes[at])
                at += 1
                continue
            }
            let index = numbered ? position - 1 : next
            if !numbered { next += 1 }
            if values.indices.contains(index) { result += values[index].utf8 }
            at = conversion + 1
        }
        return String(decoding: result, as: UTF8.self)
    }
}
