#if DEBUG  // A fuzz target reads internals (@testable), which a debug build alone compiles for: ReleaseBuild.swift.
/// The rules of the D-Bus specification ("Valid Names") for each kind of name, written from it, apart from
/// libdbus's checks that `DBusName` uses.
enum NameRules {
    private static func isLetterOrUnderscore(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || byte == UInt8(ascii: "_")
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// `/`, or `/`-separated elements of `[A-Za-z0-9_]`, none empty, with no `/` at the end.
    static func isObjectPath(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return false }
        if bytes.count == 1 { return true }
        return bytes.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).allSatisfy {
            !$0.isEmpty && $0.allSatisfy { isLetterOrUnderscore($0) || isDigit($0) }
        }
    }

    /// At most 255 bytes; two or more `.`-separated elements of `[A-Za-z0-9_]`, none empty or starting with a digit.
    static func isInterface(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count <= 255 else { return false }
        let elements = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return elements.count >= 2 && elements.allSatisfy(isElement)
    }

    /// At most 255 bytes; one element of `[A-Za-z0-9_]`, not starting with a digit.
    static func isMember(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count <= 255 && isElement(bytes[...])
    }

    /// At most 255 bytes. A well-known name: two or more `.`-separated elements of `[A-Za-z0-9_-]`, none empty or
    /// starting with a digit. A unique name: `:` and such elements, which may start with a digit; the
    /// specification asks at least two, but libdbus, whose checks decide what it aborts on, takes any number,
    /// none included, and an empty first one (`:`, `:2`, `:.1`), and so does this rule.
    static func isBusName(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count <= 255 else { return false }
        func isNameByte(_ byte: UInt8) -> Bool { isLetterOrUnderscore(byte) || isDigit(byte) || byte == UInt8(ascii: "-") }
        if bytes.first == UInt8(ascii: ":") {
            let rest = bytes.dropFirst()
            return rest.indices.allSatisfy { index in
                rest[index] == UInt8(ascii: ".")
                    ? index + 1 < rest.endIndex && isNameByte(rest[index + 1]) : isNameByte(rest[index])
            }
        }
        let elements = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return elements.count >= 2 && elements.allSatisfy { element in
            guard let first = element.first, !isDigit(first) else { return false }
            return element.allSatisfy(isNameByte)
        }
    }

    private static func isElement(_ element: ArraySlice<UInt8>) -> Bool {
        guard let first = element.first, isLetterOrUnderscore(first) else { return false }
        return element.allSatisfy { isLetterOrUnderscore($0) || isDigit($0) }
    }
}
#endif
