// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CGettext
import ProgramSupport

/// The language a program speaks to a person, chosen the usual way (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`) and
/// read from gettext's catalogs (`po/`, docs/translating.md). Like gettext itself it is the whole process's: the tray
/// speaks it from its start, and the command leaves it for the C locale before it prints for other programs
/// (`watch`'s formats), whose output never changes with the language.
///
/// The locale is loaded when a text or a number first needs it, not when the program says whom it speaks to: a
/// `netactivity begin` that prints only an id (the shell hook runs one per network command) loads none, which
/// keeps it within the benchmark's guard on the command's time and memory (docs/performance.md).
public enum Language {
    /// The catalogs' name: `netactivity.mo`, in `LANG/LC_MESSAGES/` under `catalogFolder`.
    public static let textDomain = "netactivity"

    private struct State {
        var speaksToThePerson = false
        var isLocaleLoaded = false
    }

    private static let state = Lock(State())

    /// Speaks the person's language from the first text on, with their locale's numbers and times; where no catalog
    /// has a text (an unknown language, a text not yet translated) it stays English.
    public static func followThePerson() {
        state.withLock { $0.speaksToThePerson = true }
    }

    /// Back to the C locale: English texts, and numbers and times as `--json` and the panels' formats write them.
    public static func speakToPrograms() {
        state.withLock { state in
            state.speaksToThePerson = false
            if state.isLocaleLoaded { setlocale(LC_ALL, "C") }
            state.isLocaleLoaded = false
        }
    }

    /// Loads the person's locale and binds the catalogs, once, if the program speaks to the person.
    static func prepare() {
        state.withLock { state in
            guard state.speaksToThePerson, !state.isLocaleLoaded else { return }
            setlocale(LC_ALL, "")
            bindtextdomain(textDomain, catalogFolder)
            bind_textdomain_codeset(textDomain, "UTF-8")
            state.isLocaleLoaded = true
        }
    }

    /// `TEXTDOMAINDIR` when set (gettext's own name for it, which tests and an uninstalled build use), otherwise
    /// `share/locale` beside the program's `bin/`: `/usr/share/locale` for the package, and the prefix's for
    /// `packaging/install.sh`.
    static var catalogFolder: String {
        if let folder = getenv("TEXTDOMAINDIR").map({ String(cString: $0) }), !folder.isEmpty { return folder }
        var path = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &path, path.count - 1)
        guard length > 0 else { return "/usr/share/locale" }
        let program = String(decoding: path[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let bin = program.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        return (bin.dropLast() + ["share", "locale"]).joined(separator: "/")
    }
}
