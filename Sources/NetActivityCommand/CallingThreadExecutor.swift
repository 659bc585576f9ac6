// SPDX-License-Identifier: Apache-2.0
import Dispatch
import ProgramSupport

/// Runs one task on the thread that calls `run`, until the task returns: an async `main` without the worker
/// threads Dispatch starts to serve one, for `watch`, which a panel keeps running all day. Jobs the task's
/// continuations enqueue from the library's loop thread come back here, since the task prefers this executor.
final class CallingThreadExecutor: TaskExecutor, Sendable {
    private let jobs = Lock<[UnownedJob]>([])
    /// Counts the jobs enqueued, plus one when the task has returned.
    private let wakeUps = DispatchSemaphore(value: 0)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        wakeUps.signal()
    }

    /// Runs `operation` as a task preferring this executor, and its jobs on this thread, until it returns.
    static func run(_ operation: sending @escaping () async -> Int32) -> Int32 {
        let executor = CallingThreadExecutor()
        let status = Lock<Int32?>(nil)
        Task(executorPreference: executor) {
            let result = await operation()
            status.withLock { $0 = result }
            executor.wakeUps.signal()
        }
        while true {
            executor.wakeUps.wait()
            let next = executor.jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            guard let job = next else { break }
            job.runSynchronously(on: executor.asUnownedTaskExecutor())
        }
        return status.withLock { $0 } ?? 1
    }
}
