// SPDX-License-Identifier: Apache-2.0
internal import CDBus
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An eventfd that any thread raises and an event loop polls (`EventLoop.watch`), to wake the loop for work that
/// did not come from the bus.
public final class WakeUpSignal: Sendable {
    /// Readable from a `raise()` until the next `clear()`.
    public let fileDescriptor: Int32

    public init() {
        fileDescriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        precondition(fileDescriptor >= 0, "eventfd failed: errno \(errno)")
    }

    deinit {
        close(fileDescriptor)
    }

    /// Wakes the loop, from any thread.
    public func raise() {
        var one: UInt64 = 1
        _ = write(fileDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// On the loop's thread, once woken: makes the descriptor quiet until the next `raise()`.
    public func clear() {
        var count: UInt64 = 0
        _ = read(fileDescriptor, &count, MemoryLayout<UInt64>.size)
    }
}
