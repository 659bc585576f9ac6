// SPDX-License-Identifier: Apache-2.0
/// The bytes of the state file, which lets a new instance of the service take the activities over
/// (docs/architecture.md, "State across restarts").
///
/// ```
/// file    := magic "NACTIVST", format u32, record*
/// record  := length u32, CRC-32 of payload u32, payload       (at most maximumPayload bytes)
/// payload := kind u8, fields
///   instance (1): bus id str, highest id u32             first, once: who wrote the file, the ids handed out
///   activity (2): id u32, owner str, label str, started u64, flags u8,
///                 [deadline u64, creator user u32] [percent u32] [done u64] [total u64] [rate u64] [receiver str]
///   ended    (3): id u32
///   finished (4): id u32, owner str, label str, started u64, ended u64, outcome u8, flags u16,
///                 [user u32] [process u32] [app str] [source str] [deadline u64]
///                 [percent u32] [done u64] [total u64] [rate u64]
/// str     := length u16, UTF-8 bytes
/// ```
/// Integers are little-endian. An activity record holds the whole activity, so a later one of the same id
/// replaces the earlier; an ended record removes it. A finished record is an entry of the history
/// (`ActivityHistory`), oldest first; outcomes are numbered in the order of `ActivityOutcome`, from 0.
enum StateFileFormat {
    static let magic = Array("NACTIVST".utf8)
    static let version: UInt32 = 1
    /// The magic and the format.
    static let headerSize = 12
    /// The length and the checksum before each payload.
    static let recordHeaderSize = 8
    /// Larger than any record this version writes (an activity with the longest label and names is under 900).
    static let maximumPayload = 1024

    enum Kind: UInt8 {
        case instance = 1
        case activity = 2
        case ended = 3
        case finished = 4
    }

    /// Which optional fields an activity record has.
    struct Flags: OptionSet {
        let rawValue: UInt8
        static let timed = Flags(rawValue: 1 << 0)
        static let percent = Flags(rawValue: 1 << 1)
        static let done = Flags(rawValue: 1 << 2)
        static let total = Flags(rawValue: 1 << 3)
        static let rate = Flags(rawValue: 1 << 4)
        static let cancelReceiver = Flags(rawValue: 1 << 5)
        static let cancelRequested = Flags(rawValue: 1 << 6)
        static let all: Flags = [.timed, .percent, .done, .total, .rate, .cancelReceiver, .cancelRequested]
    }

    /// Which optional fields a finished record has.
    struct FinishedFlags: OptionSet {
        let rawValue: UInt16
        static let user = FinishedFlags(rawValue: 1 << 0)
        static let process = FinishedFlags(rawValue: 1 << 1)
        static let application = FinishedFlags(rawValue: 1 << 2)
        static let source = FinishedFlags(rawValue: 1 << 3)
        static let deadline = FinishedFlags(rawValue: 1 << 4)
        static let percent = FinishedFlags(rawValue: 1 << 5)
        static let done = FinishedFlags(rawValue: 1 << 6)
        static let total = FinishedFlags(rawValue: 1 << 7)
        static let rate = FinishedFlags(rawValue: 1 << 8)
        static let cancellable = FinishedFlags(rawValue: 1 << 9)
        static let all: FinishedFlags = [.user, .process, .application, .source, .deadline, .percent, .done, .total,
                                         .rate, .cancellable]
    }

    /// An owner or an application longer than this is cut, so that a finished record stays within
    /// `maximumPayload`: a bus name is at most 255 bytes, and a source's owner adds an object path to it.
    static let maximumNameBytes = 300

    static let outcomes = ActivityOutcome.allCases
}

/// CRC-32 (IEEE 802.3, as zlib's `crc32`), which tells a record that was cut short or damaged from a whole one.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { bytes in
                for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
            }
        }
        return crc ^ 0xFFFF_FFFF
    }
}

/// Reads the integers and strings of one payload; every read fails past its end.
struct PayloadReader {
    private let bytes: ArraySlice<UInt8>
    private var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    var isAtEnd: Bool { position == bytes.endIndex }

    mutating func integer<Integer: FixedWidthInteger & UnsignedInteger>(_: Integer.Type) -> Integer? {
        let size = MemoryLayout<Integer>.size
        guard bytes.endIndex - position >= size else { return nil }
        var value: Integer = 0
        for offset in 0..<size { value |= Integer(bytes[position + offset]) << (8 * offset) }
        position += size
        return value
    }

    mutating func string() -> String? {
        guard let length = integer(UInt16.self), bytes.endIndex - position >= Int(length) else { return nil }
        let text = String(validating: bytes[position..<position + Int(length)], as: UTF8.self)
        position += Int(length)
        return text
    }
}
