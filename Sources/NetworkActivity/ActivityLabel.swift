// SPDX-License-Identifier: Apache-2.0
/// An activity's label: valid UTF-8 (a Swift string always is), at most 256 bytes, no control characters.
/// Empty is allowed.
public struct ActivityLabel: Hashable, Sendable, CustomStringConvertible {
    public static let maximumByteCount = 256

    public let text: String

    public init(_ text: String) throws(ActivityError) {
        guard text.utf8.count <= Self.maximumByteCount else {
            throw .invalidLabel("is \(text.utf8.count) bytes long; at most \(Self.maximumByteCount) are allowed")
        }
        // Every label of every Begin passes here, so the bytes are scanned first: a C0 control or DEL is one byte
        // below 0x20 or 0x7F, and a C1 control starts with 0xC2. Only then are scalars decoded, to name it.
        let mayHoldControl = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }
        }
        if mayHoldControl ?? true,
           let control = text.unicodeScalars.first(where: \.isControlCharacter) {
            throw .invalidLabel("contains the control character U+\(String(control.value, radix: 16, uppercase: true))")
        }
        self.text = text
    }

    /// A label that was validated before, such as the pooled copy of an equal one.
    init(trusted text: String) {
        self.text = text
    }

    public var description: String { text }
}

extension Unicode.Scalar {
    /// C0 and C1 controls and DEL (general category Cc).
    var isControlCharacter: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}
