// SPDX-License-Identifier: Apache-2.0
/// Amounts and rates as a person writes them to the command: decimal, in SI's powers of 1000 as the command, GNOME
/// and KDE print them (`500kB`, `10GB`, `2MB/s`), or in the powers of 1024 that say so (`512MiB`); rates in bits
/// too, as network plans and speed tests give them (`8Mbit/s`); a plain number is bytes. One space may stand between
/// the number and its unit, as the command prints them (`3.2 MB/s`). The decimal point is a point in every
/// language: a comma reads as a thousands separator in some and as the point in others, so it is refused.
public enum ByteQuantity {
    /// Bytes: `4096`, `500kB`, `1.5 GB`, `10GB`, `512MiB`; nil for anything else or for more than 2^64 - 1.
    public static func size(_ text: some StringProtocol) -> UInt64? {
        guard let (number, unit) = split(text) else { return nil }
        guard let multiplier = byteUnits[unit] else { return nil }
        return number.scaled(by: multiplier, dividedBy: 1)
    }

    /// Bytes a second: `1000`, `500kB/s`, `2 MB/s`, `8Mbit/s`, `1Gbit/s`; nil for anything else or for more than
    /// 2^64 - 1. Bits count whole bytes: `12bit/s` is 1 byte a second.
    public static func rate(_ text: some StringProtocol) -> UInt64? {
        guard let (number, unit) = split(text) else { return nil }
        if unit.isEmpty { return number.scaled(by: 1, dividedBy: 1) }
        guard unit.hasSuffix("/s") else { return nil }
        let perSecond = String(unit.dropLast(2))
        if let multiplier = byteUnits[perSecond] { return number.scaled(by: multiplier, dividedBy: 1) }
        if let multiplier = bitUnits[perSecond] { return number.scaled(by: multiplier, dividedBy: 8) }
        return nil
    }

    private static let byteUnits: [String: UInt64] = [
        "": 1, "B": 1,
        "kB": 1_000, "MB": 1_000_000, "GB": 1_000_000_000, "TB": 1_000_000_000_000,
        "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40,
    ]

    private static let bitUnits: [String: UInt64] = [
        "bit": 1, "kbit": 1_000, "Mbit": 1_000_000, "Gbit": 1_000_000_000,
    ]

    /// A number with at most one point and digits on both sides of it (20 before it, 9 after it at the most),
    /// and what follows it, less one space.
    private static func split(_ text: some StringProtocol) -> (DecimalNumber, String)? {
        let digits = text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        var unit = text.dropFirst(digits.count)
        if unit.first == " " { unit = unit.dropFirst() }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty }), parts[0].count <= 20,
              parts.count == 1 || parts[1].count <= 9 else { return nil }
        return (DecimalNumber(whole: String(parts[0]), fraction: parts.count == 2 ? String(parts[1]) : ""),
                String(unit))
    }

    /// Digits before and after the point, kept as written, so that `1.5 GB` is exact.
    private struct DecimalNumber {
        let whole: String
        let fraction: String

        /// (whole.fraction × multiplier) / divisor, rounded down; nil past UInt64.
        func scaled(by multiplier: UInt64, dividedBy divisor: UInt64) -> UInt64? {
            // Every digit, the point left out, times the multiplier, in 128 bits, then divided by the divisor and
            // by 10 for each digit after the point: no digit is lost before the division.
            var numerator = Wide(high: 0, low: 0)
            for digit in (whole + fraction).utf8 {
                guard let next = numerator.multiplied(by: 10, adding: UInt64(digit - UInt8(ascii: "0")))
                else { return nil }
                numerator = next
            }
            guard let product = numerator.multiplied(by: multiplier, adding: 0) else { return nil }
            var denominator = divisor
            for _ in fraction.utf8 { denominator *= 10 }
            guard product.high < denominator else { return nil }
            return denominator.dividingFullWidth((product.high, product.low)).quotient
        }

        private struct Wide {
            let high: UInt64
            let low: UInt64

            /// Nil past 128 bits.
            func multiplied(by factor: UInt64, adding addend: UInt64) -> Wide? {
                let low = low.multipliedFullWidth(by: factor)
                let (sum, carry) = low.low.addingReportingOverflow(addend)
                let (highProduct, overflow) = high.multipliedReportingOverflow(by: factor)
                let (high, overflowAgain) = highProduct.addingReportingOverflow(low.high &+ (carry ? 1 : 0))
                // low.high + 1 cannot wrap: a full-width product's high word is at most 2^64 - 2.
                guard !overflow, !overflowAgain else { return nil }
                return Wide(high: high, low: sum)
            }
        }
    }
}
