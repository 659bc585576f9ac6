// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Numbers and moments as the person's locale writes them (`LC_NUMERIC`, `LC_TIME`): "1,2" in German, "1.2" in
/// English and the C locale, where `Language.speakToPrograms` leaves a program.
public enum LocalFormats {
    /// A number of tenths to one decimal: `12` is "1.2", or "1,2" in German.
    public static func tenths(_ tenths: Int64) -> String {
        Language.prepare()
        let sign = tenths < 0 ? "-" : ""
        let magnitude = tenths.magnitude
        return "\(sign)\(magnitude / 10)\(decimalSeparator)\(magnitude % 10)"
    }

    /// The locale's decimal separator (LC_NUMERIC).
    static var decimalSeparator: String {
        nl_langinfo(nl_item(RADIXCHAR)).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "."
    }

    /// The time of day to the minute: "14:02"; "02:02 PM" where the locale writes a 12-hour clock.
    public static func clock(_ microseconds: UInt64) -> String {
        Language.prepare()
        return format(microseconds, clockFormat)
    }

    /// The date and the time to the minute: "2026-11-27 14:02" in the C locale, which has no date of its own that
    /// anyone reads ("11/27/26"); "27.11.2026 14:02" in German.
    public static func dateAndClock(_ microseconds: UInt64) -> String {
        Language.prepare()
        let locale = setlocale(LC_TIME, nil).map { String(cString: $0) } ?? "C"
        let date = isCLocale(locale) ? "%Y-%m-%d" : langinfo(D_FMT) ?? "%Y-%m-%d"
        return format(microseconds, "\(date) \(clockFormat)")
    }

    /// The C locale by any of its names: Debian's default `C.UTF-8` (`C.utf8` as glibc gives it back) writes dates
    /// as `C` does.
    static func isCLocale(_ name: String) -> Bool {
        name == "C" || name == "POSIX" || name.hasPrefix("C.")
    }

    /// A day, "YYYY-MM-DD", as people name it in a sentence: "5 December", "5. Dezember", "5 grudnia" (the
    /// translators' `strftime` format of a day and its month); the day itself when it does not read.
    public static func dayAndMonth(_ day: String) -> String {
        let parts = day.split(separator: "-").compactMap { Int32($0) }
        guard parts.count == 3 else { return day }
        Language.prepare()
        var time = tm()
        time.tm_year = parts[0] - 1900
        time.tm_mon = parts[1] - 1
        time.tm_mday = parts[2]
        time.tm_hour = 12
        // TRANSLATORS: a strftime format of a day of the month and its month's name, as in "resets on 5 December".
        let format = localized("%-d %B")
        var buffer = [CChar](repeating: 0, count: 128)
        let length = strftime(&buffer, buffer.count, format, &time)
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The local day, as data usage names days: "2026-11-28" in every language (a machine format).
    public static func day(_ microseconds: UInt64) -> String {
        format(microseconds, "%Y-%m-%d")
    }

    /// The locale's time of day (`T_FMT`) to the minute.
    private static var clockFormat: String {
        withoutSeconds(langinfo(T_FMT) ?? "%H:%M:%S")
    }

    /// A time format to the minute: "%T" is "%H:%M", "%r" (English's 12-hour clock) "%I:%M %p".
    static func withoutSeconds(_ format: String) -> String {
        var result = format.replacingEvery("%T", with: "%H:%M")
            .replacingEvery("%r", with: langinfo(T_FMT_AMPM) ?? "%I:%M:%S %p")
        for seconds in [":%S", ".%S", "%S"] { result = result.replacingEvery(seconds, with: "") }
        return result
    }

    private static func langinfo(_ item: Int) -> String? {
        nl_langinfo(nl_item(item)).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func format(_ microseconds: UInt64, _ format: String) -> String {
        var seconds = time_t(microseconds / 1_000_000)
        var time = tm()
        localtime_r(&seconds, &time)
        var buffer = [CChar](repeating: 0, count: 128)
        let length = strftime(&buffer, buffer.count, format, &time)
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension String {
    /// Every `target` replaced, without the standard library's string processing, which the tray does not
    /// otherwise link.
    fileprivate func replacingEvery(_ target: String, with replacement: String) -> String {
        let bytes = Array(utf8), pattern = Array(target.utf8)
        var result: [UInt8] = []
        var at = 0
        while at < bytes.count {
            if bytes[at...].starts(with: pattern) {
                result += replacement.utf8
                at += pattern.count
            } else {
                result.append(bytes[at])
                at += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
