#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The kernel's name for a process's command (`/proc/PID/comm`), at most 15 bytes; nil when it is unreadable.
func commandName(ofProcess processID: UInt32) -> String? {
    let fd = open("/proc/\(processID)/comm", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = read(fd, &buffer, buffer.count)
    guard count > 0 else { return nil }
    let name = buffer[..<count].last == UInt8(ascii: "\n") ? buffer[..<(count - 1)] : buffer[..<count]
    return String(decoding: name, as: UTF8.self)
}
