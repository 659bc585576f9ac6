public import Foundation

extension Process {
    /// Starts it (`run()`), then closes this process's handles of the files given to it as standard input, output
    /// and error: the child has its own copies.
    ///
    /// On Linux a `Process` is never freed (swift-corelibs-foundation 6.3; `Tests/Sanitizers/leaks.supp`), nor what
    /// it holds, so each file handle given to one stayed open in the test process: a process of the suite had
    /// 2,000 files open by its end, and past about 1,350 `run()` itself reads beyond the end of its listing of
    /// `/proc/self/fd` (swift-corelibs-foundation#5472), which AddressSanitizer reported and which crashed the suite
    /// once. A pipe's far end Foundation closes itself; its near end is its reader's to close.
    public func runHandingOverFiles() throws {
        try run()
        StartedProcesses.keep(self)
        for case let handle as FileHandle in [standardInput, standardOutput, standardError]
        where handle !== FileHandle.nullDevice && handle.fileDescriptor > STDERR_FILENO {
            try? handle.close()
        }
    }
}

/// Every process the harness started, held for the test process's life: Foundation would never free one anyway, and
/// LeakSanitizer would report each, and all it holds, as lost (`bash Tests/sanitizers.sh address`); held here, they
/// are plainly in use, and a leak of the project's own still shows.
private enum StartedProcesses {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var all: [Process] = []

    static func keep(_ process: Process) {
        lock.withLock { all.append(process) }
    }
}
