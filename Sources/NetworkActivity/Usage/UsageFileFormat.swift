// SPDX-License-Identifier: Apache-2.0
import ProgramSupport
/// The bytes of the usage file, in which the system service keeps `DataUsage` across restarts and reboots
/// (`docs/netactivityd.md`, "Data usage"). Written whole at each save (`AtomicFile`): at most once a minute.
///
/// ```
/// file    := magic "NACTUSAG", format u32, names, rows, CRC-32 of everything before u32
/// names   := count u32, str*                 every app, label and network named once
/// rows    := count u32, row*
/// row     := day u32 (days since 1970-01-01), user u32, private to u32 (0xFFFFFFFF: everyone's),
///            app u32, label u32, network u32 (indices into names), metered u8, received u64, sent u64
/// str     := length u16, UTF-8 bytes
/// ```
/// Integers are little-endian. A row is 41 bytes: 90 days of 200 apps on 3 networks (54,000 rows) make about
/// 2.2 MB, and a day holds at most `DataUsage.maximumRowsPerDayInAll` rows, whatever varies, each naming at most
/// three names of at most `ActivityLabel.maximumByteCount` bytes (the names of the rows kept, and no more), so
/// the file never passes `maximumSize(keptDays:)`.
public enum UsageFileFormat {
    static let magic = Array("NACTUSAG".utf8)
    static let version: UInt32 = 1
    static let rowSize = 41
    static let everyone = UInt32.max

    /// The largest file that totals of `keptDays` days make: every day full, every name as long as a label.
    public static func maximumSize(keptDays: Int) -> Int {
        let rows = keptDays * DataUsage.maximumRowsPerDayInAll
        let names = rows * 3 * (2 + ActivityLabel.maximumByteCount)
        return magic.count + 4 + 4 + names + 4 + rows * rowSize + 4
    }

    public static func encode(_ usage: DataUsage) -> [UInt8] {
        var names: [String: UInt32] = [:]
        var nameList: [String] = []
        func index(_ name: String) -> UInt32 {
            if let known = names[name] { return known }
            let next = UInt32(nameList.count)
            names[name] = next
            nameList.append(name)
            return next
        }
        var rowBytes: [UInt8] = []
        rowBytes.reserveCapacity(usage.rows.count * rowSize)
        // Oldest day first, for a file that reads the same for the same totals.
        let rows = usage.rows.sorted { lhs, rhs in
            lhs.key.day != rhs.key.day ? lhs.key.day < rhs.key.day
                : (lhs.key.application, lhs.key.network, lhs.key.user, lhs.key.metered ? 1 : 0)
                    < (rhs.key.application, rhs.key.network, rhs.key.user, rhs.key.metered ? 1 : 0)
        }
        for (entry, bytes) in rows {
            append(UInt32(entry.day.daysSinceEpoch), to: &rowBytes)
            append(entry.user, to: &rowBytes)
            append(entry.privateTo ?? everyone, to: &rowBytes)
            append(index(entry.application), to: &rowBytes)
            append(index(usage.labels[entry.application] ?? entry.application), to: &rowBytes)
            append(index(entry.network), to: &rowBytes)
            rowBytes.append(entry.metered ? 1 : 0)
            append(bytes.received, to: &rowBytes)
            append(bytes.sent, to: &rowBytes)
        }
        var file = magic
        append(version, to: &file)
        append(UInt32(nameList.count), to: &file)
        for name in nameList {
            let utf8 = Array(name.utf8.prefix(Int(UInt16.max)))
            append(UInt16(utf8.count), to: &file)
            file += utf8
        }
        append(UInt32(rows.count), to: &file)
        file += rowBytes
        append(CRC32.checksum(file[...]), to: &file)
        return file
    }

    /// The totals in `bytes`, keeping `keptDays`; nil for a file that is not one whole (damaged, cut short, of
    /// another format).
    public static func decode(_ bytes: [UInt8], keptDays: Int) -> DataUsage? {
        guard bytes.count >= magic.count + 16, Array(bytes.prefix(magic.count)) == magic else { return nil }
        let body = bytes[..<(bytes.endIndex - 4)]
        var tail = PayloadReader(bytes[(bytes.endIndex - 4)...])
        guard tail.integer(UInt32.self) == CRC32.checksum(body) else { return nil }
        var reader = PayloadReader(body[magic.count...])
        guard reader.integer(UInt32.self) == version, let nameCount = reader.integer(UInt32.self),
              Int(nameCount) <= body.count else { return nil }
        var names: [String] = []
        for _ in 0..<nameCount {
            guard let name = reader.string() else { return nil }
            names.append(name)
        }
        guard let rowCount = reader.integer(UInt32.self), Int(rowCount) * rowSize <= body.count else { return nil }
        var rows: [UsageEntry: ByteCounts] = [:]
        var labels: [String: String] = [:]
        for _ in 0..<rowCount {
            guard let day = reader.integer(UInt32.self), let user = reader.integer(UInt32.self),
                  let privateTo = reader.integer(UInt32.self), let app = reader.integer(UInt32.self),
                  let label = reader.integer(UInt32.self), let network = reader.integer(UInt32.self),
                  let metered = reader.integer(UInt8.self), let received = reader.integer(UInt64.self),
                  let sent = reader.integer(UInt64.self),
                  [app, label, network].allSatisfy({ Int($0) < names.count }) else { return nil }
            let entry = UsageEntry(day: UsageDay(daysSinceEpoch: Int(day)), user: user,
                                   privateTo: privateTo == everyone ? nil : privateTo,
                                   application: names[Int(app)], network: names[Int(network)], metered: metered != 0)
            rows[entry, default: ByteCounts()] += ByteCounts(received: received, sent: sent)
            labels[entry.application] = names[Int(label)]
        }
        guard reader.isAtEnd else { return nil }
        return DataUsage(keptDays: keptDays, rows: rows, labels: labels)
    }

    private static func append<Integer: FixedWidthInteger>(_ value: Integer, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
