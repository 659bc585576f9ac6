@testable import Localization
import Testing

/// How a translated text's placeholders are filled, and what the C locale (every test process's: it never calls
/// `Language.followThePerson`) writes; German and Polish run in real programs (`TranslationTests`).
struct PlaceholderTests {
    @Test(arguments: [
        ("Stop %s", ["backup"], "Stop backup"),
        ("%d active: %s and %d more", ["7", "a, b", "5"], "7 active: a, b and 5 more"),
        // A translation that reorders the values numbers them.
        ("%2$s: %1$s", ["download", "Firefox"], "Firefox: download"),
        ("%d %%", ["45"], "45 %"),
        ("100%%", [], "100%"),
        // A value the text does not have is left empty; a conversion it does not know stays as written.
        ("%s and %s", ["one"], "one and "),
        ("%x %s", ["a"], "%x a"),
        ("50 % off", [], "50 % off"),
        ("trailing %", [], "trailing %"),
    ])
    func fillsInOrderByNumberAndEscaped(template: String, values: [String], filled: String) {
        #expect(Placeholders.fill(template, with: values) == filled)
    }

    @Test func anUntranslatedTextIsTheEnglishWithItsValues() {
        #expect(localized("Stop %s", "backup") == "Stop backup")
        #expect(localized("Recent") == "Recent")
        #expect(localizedPlural("%d active", "%d active", count: 1) == "1 active")
        #expect(localizedPlural("cleared %d entry", "cleared %d entries", count: 0) == "cleared 0 entries")
        #expect(localizedPlural("cleared %d entry", "cleared %d entries", count: 1) == "cleared 1 entry")
        #expect(localizedPlural("%d of %s", "%d of %s", count: 2, 2, "all") == "2 of all")
    }

    @Test func theCLocaleWritesAPointAndTheClockToTheMinute() {
        #expect(LocalFormats.tenths(12) == "1.2")
        #expect(LocalFormats.tenths(-5) == "-0.5")
        #expect(LocalFormats.withoutSeconds("%H:%M:%S") == "%H:%M")
        #expect(LocalFormats.withoutSeconds("%T") == "%H:%M")
        #expect(LocalFormats.withoutSeconds("%I:%M:%S %p") == "%I:%M %p")
        #expect(LocalFormats.clock(0).count == 5)
        #expect(LocalFormats.dateAndClock(0).contains(/^19(69|70)-(12|01)-\d\d \d\d:\d\d$/))
    }

    @Test(arguments: [("C", true), ("POSIX", true), ("C.UTF-8", true), ("C.utf8", true),
                      ("de_DE.UTF-8", false), ("ca_ES.UTF-8", false), ("en_US", false)])
    func theCLocaleIsKnownByEachOfItsNames(name: String, isC: Bool) {
        #expect(LocalFormats.isCLocale(name) == isC)
    }
}
