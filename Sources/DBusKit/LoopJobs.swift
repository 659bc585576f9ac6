internal import CGlibcExtras
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Work that other threads hand to an event loop's thread: queued under a lock, with an eventfd that the loop
/// polls, so that the loop wakes for it and runs it in order.
final class LoopJobs: Sendable {
    private let queue = Mutex<[@Sendable () -> Void]>([])
    /// Readable while jobs wait.
    let fileDescriptor: Int32

    init() {
        fileDescriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        precondition(fileDescriptor >= 0, "eventfd failed: errno \(errno)")
    }

    deinit {
        close(fileDescriptor)
    }

    /// Queues `job` and wakes the loop.
    func post(_ job: @escaping @Sendable () -> Void) {
        queue.withLock { $0.append(job) }
        var one: UInt64 = 1
        _ = write(fileDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// On the loop's thread: runs every job queued so far.
    func runQueued() {
        var count: UInt64 = 0
        _ = read(fileDescriptor, &count, MemoryLayout<UInt64>.size)
        let jobs = queue.withLock { queue in
            defer { queue.removeAll() }
            return queue
        }
        for job in jobs { job() }
    }
}
