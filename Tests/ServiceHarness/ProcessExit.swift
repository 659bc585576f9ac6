public import Foundation

/// Waits for a process to exit, up to `timeout`. A handler set after launch is not reliably called by
/// Foundation on Linux, so a helper thread waits and signals a semaphore.
public func waitForExit(_ process: Process, timeout: Duration) -> Bool {
    guard process.isRunning else { return true }
    let exited = DispatchSemaphore(value: 0)
    let waiting = process
    DispatchQueue.global().async {
        waiting.waitUntilExit()
        exited.signal()
    }
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    return exited.wait(timeout: .now() + seconds) == .success
}
