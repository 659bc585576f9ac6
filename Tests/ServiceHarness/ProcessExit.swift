public import Foundation

/// Waits for a process to exit, up to `timeout`; false if it is still running then.
///
/// Not `Process.waitUntilExit()`: on Linux it runs the calling thread's run loop until the process is gone, and a
/// thread with nothing in its run loop returns from each turn at once, so it keeps a core busy for as long as the
/// process runs (a desktop's test waiting on its script took most of a core from the desktop it drew). This looks at
/// `isRunning`, which Foundation's own thread clears when it reaps the child, at intervals growing to 5 ms.
public func waitForExit(_ process: Process, timeout: Duration) -> Bool {
    waitForExit(process, until: ContinuousClock.now + timeout)
}

/// Waits for a process to exit, however long it runs.
public func waitForExit(_ process: Process) {
    _ = waitForExit(process, until: nil)
}

private func waitForExit(_ process: Process, until deadline: ContinuousClock.Instant?) -> Bool {
    var interval = Duration.microseconds(100)
    while process.isRunning {
        if let deadline {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            interval = min(interval, left)
        }
        let (seconds, attoseconds) = interval.components
        usleep(useconds_t(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
        interval = min(interval * 2, .milliseconds(5))
    }
    return true
}
