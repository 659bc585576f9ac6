// SPDX-License-Identifier: Apache-2.0
import ProgramSupport

/// Work that other threads hand to an event loop's thread: queued under a lock, with a `WakeUpSignal` that the
/// loop polls, so that the loop wakes for it and runs it in order.
package final class LoopJobs: Sendable {
    /// Nil once the loop has ended for good (`close`).
    private let queue = Lock<[@Sendable () -> Void]?>([])
    private let wakeUp = WakeUpSignal()
    /// Readable while jobs wait.
    package var fileDescriptor: Int32 { wakeUp.fileDescriptor }

    package init() {}

    /// Queues `job` and wakes the loop; drops it once the loop has ended.
    package func post(_ job: @escaping @Sendable () -> Void) {
        guard queue.withLock({ $0?.append(job) }) != nil else { return }
        wakeUp.raise()
    }

    /// On the loop's thread: runs every job queued so far.
    package func runQueued() {
        wakeUp.clear()
        let jobs = queue.withLock { queue in
            defer { if queue != nil { queue = [] } }
            return queue ?? []
        }
        for job in jobs { job() }
    }

    /// On the loop's thread, once its loop has ended: drops the jobs that wait and every later one. None could
    /// run, and what they hold (often the owner of these jobs) would never be released.
    package func close() {
        queue.withLock { $0 = nil }
    }
}
