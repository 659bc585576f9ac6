// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What an application's desktop file says of it, for people: its name and its icon.
public struct DesktopApplication: Sendable, Equatable {
    /// `Name`, in the user's language where the file has it.
    public var name: String
    /// `Icon`: a name in the icon theme, or an absolute path; nil when the file has none.
    public var icon: String?

    public init(name: String, icon: String?) {
        self.name = name
        self.icon = icon
    }
}

/// The installed applications' desktop files, found as the XDG specifications say: `<id>.desktop` in the
/// `applications` folder of `$XDG_DATA_HOME`, then of each of `$XDG_DATA_DIRS` (Flatpak adds its exports there).
/// Each id is looked up once, since a tray would otherwise read files at every redraw.
public final class DesktopApplications: Sendable {
    /// The applications of this user's session.
    public static let installed = DesktopApplications(environment: Dictionary(uniqueKeysWithValues:
        ["XDG_DATA_HOME", "XDG_DATA_DIRS", "HOME", "LC_ALL", "LC_MESSAGES", "LANG"].compactMap { name in
            getenv(name).map { (name, String(cString: $0)) }
        }))

    private let folders: [String]
    private let languages: [String]
    private let found = Lock<[String: DesktopApplication?]>([:])

    /// - Parameters:
    ///   - folders: the `applications` folders, searched in order.
    ///   - languages: the suffixes of localized keys to prefer, most specific first (`de_DE`, `de`).
    public init(folders: [String], languages: [String]) {
        self.folders = folders
        self.languages = languages
    }

    /// The folders and languages that the environment's `XDG_DATA_HOME`, `XDG_DATA_DIRS`, `HOME` and the locale
    /// variables give.
    public convenience init(environment: [String: String]) {
        let home = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? environment["HOME"].map { $0 + "/.local/share" }
        let system = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        self.init(folders: ([home].compactMap { $0 } + system).map { $0 + "/applications" },
                  languages: Self.languages(ofLocale: locale))
    }

    /// What the desktop file of `id` says; nil for an id with no desktop file here (a command's name, say).
    public func application(_ id: String) -> DesktopApplication? {
        if let known = found.withLock({ $0[id] }) { return known }
        let read = lookUp(id)
        found.withLock { $0[id] = read }
        return read
    }

    private func lookUp(_ id: String) -> DesktopApplication? {
        // An id names a file in these folders and nothing else.
        guard !id.isEmpty, !id.contains("/"), !id.hasPrefix(".") else { return nil }
        for folder in folders {
            if let text = readSmallTextFile(atPath: "\(folder)/\(id).desktop") {
                return Self.parse(text, languages: languages)
            }
        }
        return nil
    }

    /// The name and icon in a desktop file's `[Desktop Entry]` group; nil when it has no name.
    public static func parse(_ text: String, languages: [String]) -> DesktopApplication? {
        var inEntry = false
        var values: [Substring: Substring] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("[") {
                inEntry = line == "[Desktop Entry]"
                continue
            }
            guard inEntry, !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingSpaces
            if values[key] == nil { values[key] = line[line.index(after: equals)...].trimmingSpaces }
        }
        let localizedName = languages.lazy.compactMap { values["Name[\($0)]"] }.first
        guard let name = (localizedName ?? values["Name"]).map(unescaped), !name.isEmpty else { return nil }
        let icon = values["Icon"].map(unescaped)
        return DesktopApplication(name: name, icon: icon?.isEmpty == false ? icon : nil)
    }

    /// The suffixes a locale such as `de_DE.UTF-8@euro` allows, most specific first: `de_DE`, `de`.
    public static func languages(ofLocale locale: String) -> [String] {
        let base = locale.prefix { $0 != "." && $0 != "@" }
        guard !base.isEmpty, base != "C", base != "POSIX" else { return [] }
        let language = base.prefix { $0 != "_" }
        return language == base ? [String(base)] : [String(base), String(language)]
    }

    /// A string value with the desktop file escapes (`\s`, `\n`, `\t`, `\r`, `\\`) undone, the line breaks and tabs
    /// as spaces: a name and an icon are one line, in a menu row, a title, a table's cell.
    private static func unescaped(_ value: Substring) -> String {
        guard value.contains("\\") else { return String(value) }
        var result = ""
        var characters = value.makeIterator()
        while let character = characters.next() {
            guard character == "\\", let escaped = characters.next() else { result.append(character); continue }
            switch escaped {
            case "s", "n", "t", "r": result.append(" ")
            default: result.append(escaped)
            }
        }
        return result
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        let start = firstIndex { $0 != " " } ?? endIndex
        let end = self[start...].lastIndex { $0 != " " }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
