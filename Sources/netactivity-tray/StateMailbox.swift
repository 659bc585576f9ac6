import DBusKit
import NetworkActivityClient
import Synchronization

/// Carries the indicator's states from the task that follows them (the library's `indicatorStates()`) to the
/// tray's event loop, which polls `fileDescriptor` and takes them in order: the tray's objects live on the loop's
/// thread, and the loop sleeps until a state or a message comes.
final class StateMailbox: Sendable {
    private struct Contents {
        var states: [IndicatorState] = []
        var isClosed = false
    }

    private let contents = Mutex(Contents())
    private let wakeUp = WakeUpSignal()
    /// Readable while states wait or once the mailbox is closed.
    var fileDescriptor: Int32 { wakeUp.fileDescriptor }

    func post(_ state: IndicatorState) {
        contents.withLock { $0.states.append(state) }
        wakeUp.raise()
    }

    /// No state will follow: the stream finished, since the bus went away.
    func finish() {
        contents.withLock { $0.isClosed = true }
        wakeUp.raise()
    }

    /// On the loop's thread, when `fileDescriptor` is readable: the states posted since the last time, and whether
    /// the mailbox is closed.
    func take() -> (states: [IndicatorState], isClosed: Bool) {
        wakeUp.clear()
        return contents.withLock { contents in
            defer { contents.states = [] }
            return (contents.states, contents.isClosed)
        }
    }
}
