// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization

/// A TCP transfer on loopback between two threads of this process: as fast as the kernel moves it, or paced to a
/// rate. What the traffic counters' programs see of each packet is what they would see of a download's.
enum LoopbackTransfer {
    /// Moves bytes for `seconds`, at most `bytesPerSecond` when given, `chunkSize` bytes at a time, calling
    /// `whilePaced` at least every 100 ms while it waits to send more; returns the bytes received.
    static func run(seconds: Double, bytesPerSecond: Double? = nil, chunkSize: Int = 1 << 16,
                    whilePaced: () -> Void = {}) throws -> UInt64 {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw BenchFailure("socket: errno \(errno)") }
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                guard bind(listener, raw, length) == 0, listen(listener, 1) == 0,
                      getsockname(listener, raw, &length) == 0 else { throw BenchFailure("bind: errno \(errno)") }
            }
        }
        let sender = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(sender, $0, length) }
        }
        let receiver = accept(listener, nil, nil)
        guard sender >= 0, connected == 0, receiver >= 0 else { throw BenchFailure("connect: errno \(errno)") }
        let received = Atomic<UInt64>(0)
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let count = recv(receiver, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                received.add(UInt64(count), ordering: .relaxed)
            }
        }
        reader.start()
        let chunk = [UInt8](repeating: 0, count: chunkSize)
        let started = Date()
        var sent = 0.0
        while Date().timeIntervalSince(started) < seconds {
            guard send(sender, chunk, chunk.count, 0) > 0 else { break }
            sent += Double(chunk.count)
            if let bytesPerSecond {
                let due = started.addingTimeInterval(sent / bytesPerSecond)
                while due.timeIntervalSinceNow > 0 {
                    whilePaced()
                    Thread.sleep(until: min(due, Date().addingTimeInterval(0.1)))
                }
            }
        }
        close(sender)
        while !reader.isFinished { Thread.sleep(forTimeInterval: 0.001) }
        close(receiver)
        return received.load(ordering: .relaxed)
    }
}
