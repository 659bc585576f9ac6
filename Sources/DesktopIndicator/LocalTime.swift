// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A moment on the wall clock as a person reads it, in the machine's time zone.
public enum LocalTime {
    /// "14:02".
    public static func clock(_ microseconds: UInt64) -> String {
        let time = components(microseconds)
        return "\(twoDigits(time.tm_hour)):\(twoDigits(time.tm_min))"
    }

    /// "2026-11-27 14:02".
    public static func dateAndClock(_ microseconds: UInt64) -> String {
        let time = components(microseconds)
        return "\(time.tm_year + 1900)-\(twoDigits(time.tm_mon + 1))-\(twoDigits(time.tm_mday)) \(clock(microseconds))"
    }

    private static func components(_ microseconds: UInt64) -> tm {
        var seconds = time_t(microseconds / 1_000_000)
        var result = tm()
        localtime_r(&seconds, &result)
        return result
    }

    private static func twoDigits(_ value: Int32) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
