// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads a small text file whole (a file of `/proc`, a desktop file), with no Foundation: the tray and the daemon
/// keep their memory without it.
///
/// - Returns: the text, invalid UTF-8 repaired; nil when the file cannot be read, is empty, or is longer than
///   `maxBytes`.
public func readSmallTextFile(atPath path: String, maxBytes: Int = 65536) -> String? {
    readSmallFile(atPath: path, maxBytes: maxBytes).map { String(decoding: $0, as: UTF8.self) }
}

/// Reads a file whole, as its bytes; nil when it cannot be read, is empty, or is longer than `maxBytes`.
public func readSmallFile(atPath path: String, maxBytes: Int) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var contents: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: maxBytes > 65_536 ? 65_536 : 4096)
    while true {
        let count = read(fd, &buffer, buffer.count)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        contents += buffer[..<count]
        guard contents.count <= maxBytes else { return nil }
    }
    return contents.isEmpty ? nil : contents
}
