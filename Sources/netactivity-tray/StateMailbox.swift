internal import CGlibcExtras
import NetworkActivityClient
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Carries the indicator's states from the task that follows them (the library's `indicatorStates()`) to the
/// tray's event loop, which polls `fileDescriptor` and takes them in order: the tray's objects live on the loop's
/// thread, and the loop sleeps until a state or a message comes.
final class StateMailbox: Sendable {
    private struct Contents {
        var states: [IndicatorState] = []
        var isClosed = false
    }

    private let contents = Mutex(Contents())
    /// Readable while states wait or once the mailbox is closed.
    let fileDescriptor: Int32

    init() {
        fileDescriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        precondition(fileDescriptor >= 0, "eventfd failed: errno \(errno)")
    }

    deinit {
        close(fileDescriptor)
    }

    func post(_ state: IndicatorState) {
        contents.withLock { $0.states.append(state) }
        wake()
    }

    /// No state will follow: the stream finished, since the bus went away.
    func finish() {
        contents.withLock { $0.isClosed = true }
        wake()
    }

    /// On the loop's thread, when `fileDescriptor` is readable: the states posted since the last time, and whether
    /// the mailbox is closed.
    func take() -> (states: [IndicatorState], isClosed: Bool) {
        var count: UInt64 = 0
        _ = read(fileDescriptor, &count, MemoryLayout<UInt64>.size)
        return contents.withLock { contents in
            defer { contents.states = [] }
            return (contents.states, contents.isClosed)
        }
    }

    private func wake() {
        var one: UInt64 = 1
        _ = write(fileDescriptor, &one, MemoryLayout<UInt64>.size)
    }
}
