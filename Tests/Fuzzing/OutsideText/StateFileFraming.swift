#if DEBUG  // A fuzz target reads internals (@testable), which a debug build alone compiles for: ReleaseBuild.swift.
@testable import NetworkActivity

/// A state file around payloads that the fuzzer gives: the header, then each payload with its length and checksum,
/// so that what is fuzzed is the records' contents, which a wrong checksum would keep from being read at all.
struct StateFileFraming {
    private(set) var bytes = StateFileFormat.magic + littleEndian(StateFileFormat.version)

    mutating func append(payload: ArraySlice<UInt8>) {
        bytes += littleEndian(UInt32(payload.count)) + littleEndian(CRC32.checksum(payload)) + payload
    }
}

private func littleEndian(_ value: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}
#endif
