// SPDX-License-Identifier: Apache-2.0
import Localization

/// Amounts of bytes as people read them, in powers of 1000 as GNOME and KDE show them, with their locale's decimal
/// separator ("1,2 GB" in German). The units are SI's, the same in every language.
public enum ByteAmount {
    /// The amount in the unit that reads best: `512 B`, `3.2 MB`, `1.0 GB`.
    public static func text(_ count: UInt64) -> String {
        guard count >= 1000 else { return "\(count) B" }
        var value = Double(count)
        for unit in ["kB", "MB", "GB", "TB", "PB"] {
            value /= 1000
            if value < 999.95 || unit == "PB" {
                return "\(LocalFormats.tenths(Int64((value * 10).rounded()))) \(unit)"
            }
        }
        return "\(count) B"
    }

    /// A rate of whole kilobytes, as a preset is, in the largest unit that keeps it whole: `100 kB/s`, `1 MB/s`;
    /// any other as `rate` reads.
    public static func wholeRate(_ bytesPerSecond: UInt64) -> String {
        guard bytesPerSecond >= 1000, bytesPerSecond % 1000 == 0 else { return rate(bytesPerSecond) }
        var value = bytesPerSecond / 1000
        for unit in ["kB", "MB", "GB"] {
            if value < 1000 || value % 1000 != 0 || unit == "GB" { return localized("%s/s", "\(value) \(unit)") }
            value /= 1000
        }
        return rate(bytesPerSecond)
    }

    /// A rate: `3.2 MB/s`.
    public static func rate(_ bytesPerSecond: UInt64) -> String {
        localized("%s/s", text(bytesPerSecond))
    }
}
