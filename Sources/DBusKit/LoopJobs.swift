import Synchronization

/// Work that other threads hand to an event loop's thread: queued under a lock, with a `WakeUpSignal` that the
/// loop polls, so that the loop wakes for it and runs it in order.
package final class LoopJobs: Sendable {
    private let queue = Mutex<[@Sendable () -> Void]>([])
    private let wakeUp = WakeUpSignal()
    /// Readable while jobs wait.
    package var fileDescriptor: Int32 { wakeUp.fileDescriptor }

    package init() {}

    /// Queues `job` and wakes the loop.
    package func post(_ job: @escaping @Sendable () -> Void) {
        queue.withLock { $0.append(job) }
        wakeUp.raise()
    }

    /// On the loop's thread: runs every job queued so far.
    package func runQueued() {
        wakeUp.clear()
        let jobs = queue.withLock { queue in
            defer { queue.removeAll() }
            return queue
        }
        for job in jobs { job() }
    }
}
