// SPDX-License-Identifier: Apache-2.0
/// A JSON value, written as one line of RFC 8259 text: the one way the programs write JSON.
///
/// Written by hand, not with Foundation's `JSONEncoder`: the command is a third of the size without Foundation,
/// and `netactivity watch` stays within 10 MB (docs/performance.md). Objects keep their keys in the order given,
/// so the same value always reads the same.
public enum JSONValue: Sendable {
    case string(String)
    case integer(Int64)
    case unsigned(UInt64)
    case bool(Bool)
    case null
    case array([JSONValue])
    /// Keys in the order they are written.
    case object([(key: String, value: JSONValue)])

    /// An object of the members whose value is not nil, in this order: a key with no value is left out.
    public static func object(_ members: KeyValuePairs<String, JSONValue?>) -> JSONValue {
        .object(members.compactMap { key, value in value.map { (key, $0) } })
    }

    /// The value as one line of JSON.
    public var text: String {
        var text = ""
        write(to: &text)
        return text
    }

    private func write(to text: inout String) {
        switch self {
        case .string(let string): Self.writeQuoted(string, to: &text)
        case .integer(let number): text += String(number)
        case .unsigned(let number): text += String(number)
        case .bool(let flag): text += flag ? "true" : "false"
        case .null: text += "null"
        case .array(let values):
            text += "["
            for (index, value) in values.enumerated() {
                if index > 0 { text += "," }
                value.write(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { text += "," }
                Self.writeQuoted(member.key, to: &text)
                text += ":"
                member.value.write(to: &text)
            }
            text += "}"
        }
    }

    /// A string in quotes, with what RFC 8259 says must be escaped escaped, and nothing else.
    private static func writeQuoted(_ string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{0}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
