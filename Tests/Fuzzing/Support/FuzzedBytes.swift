#if DEBUG  // A fuzz target reads internals (@testable), which a debug build alone compiles for: ReleaseBuild.swift.
/// Reads a fuzzer's input as the choices of a test: each read takes bytes from the front, and past the end every
/// read gives zero, so that any input is a whole test.
public struct FuzzedBytes {
    private let bytes: [UInt8]
    private var position = 0

    public init(_ data: UnsafePointer<UInt8>?, count: Int) {
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    }

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public var isAtEnd: Bool { position >= bytes.count }

    /// What is left, unread.
    public var remaining: ArraySlice<UInt8> { bytes[min(position, bytes.count)...] }

    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    public mutating func integer<Integer: FixedWidthInteger & UnsignedInteger>(_: Integer.Type = Integer.self) -> Integer {
        var value: Integer = 0
        for index in 0..<MemoryLayout<Integer>.size { value |= Integer(byte()) << (8 * index) }
        return value
    }

    public mutating func bool() -> Bool { byte() & 1 == 1 }

    /// One of `choices`, by the next byte.
    public mutating func pick<Choice>(_ choices: [Choice]) -> Choice {
        choices[Int(byte()) % choices.count]
    }

    /// The next `count` bytes, fewer at the end.
    public mutating func take(_ count: Int) -> ArraySlice<UInt8> {
        let start = min(position, bytes.count)
        let end = min(start + count, bytes.count)
        position = start + count
        return bytes[start..<end]
    }

    /// A string of up to 255 bytes, its length the next byte; bytes that are not UTF-8 are replaced, as a Swift
    /// string read from the bus never holds them.
    public mutating func string() -> String {
        String(decoding: take(Int(byte())), as: UTF8.self)
    }

    /// Marks the rest as read.
    public mutating func skipToEnd() {
        position = bytes.count
    }

    public mutating func skip(_ count: Int) {
        position += count
    }
}

/// A broken rule of a target's oracle: stops the run with the rule and what broke it, which libFuzzer reports
/// as a crash with its input.
public func fuzzCheck(_ holds: @autoclosure () -> Bool, _ rule: @autoclosure () -> String,
                      file: StaticString = #fileID, line: UInt = #line) {
    if !holds() { fatalError("oracle: \(rule())", file: file, line: line) }
}
#endif
