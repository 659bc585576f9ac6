internal import CDBus
internal import CGlibcExtras
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The timeouts libdbus asks for on a connection that threads share (`dbus_connection_set_timeout_functions`): one
/// per call awaiting its reply, after which libdbus answers the call itself with `NoReply`.
///
/// libdbus adds a timeout on whichever thread sends the call, so they are kept under a lock, and a timerfd set to
/// the earliest tells the loop when one is due: arming it is one system call, and the loop, asleep in `poll()`, is
/// not woken for it.
final class CallTimeouts: Sendable {
    private struct Entry: @unchecked Sendable {
        let timeout: OpaquePointer
        let due: ContinuousClock.Instant
    }

    private struct State: Sendable {
        var entries: [Entry] = []
        /// When the timerfd goes off next, if it is set.
        var armed: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    /// Readable when the earliest timeout may be due.
    let fileDescriptor: Int32

    init() {
        fileDescriptor = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        precondition(fileDescriptor >= 0, "timerfd_create failed: errno \(errno)")
    }

    deinit {
        close(fileDescriptor)
    }

    /// Installs the timeout functions; libdbus holds this object retained until it drops them with the connection.
    func install(on connection: OpaquePointer) {
        let box = Unmanaged.passRetained(self).toOpaque()
        guard dbus_connection_set_timeout_functions(connection, addTimeout, removeTimeout, toggleTimeout, box,
                                                    releaseTimeouts) != 0
        else { fatalError("libdbus is out of memory setting timeout functions") }
    }

    fileprivate func add(_ timeout: OpaquePointer) {
        guard dbus_timeout_get_enabled(timeout) != 0 else { return }
        let due = ContinuousClock.now + .milliseconds(dbus_timeout_get_interval(timeout))
        state.withLock { state in
            state.entries.append(Entry(timeout: timeout, due: due))
            if state.armed.map({ due < $0 }) ?? true {
                state.armed = due
                arm(after: ContinuousClock.now.duration(to: due))
            }
        }
    }

    /// A timer left set for a removed timeout only makes the loop look once for nothing.
    fileprivate func remove(_ timeout: OpaquePointer) {
        state.withLock { $0.entries.removeAll { $0.timeout == timeout } }
    }

    /// libdbus restarts a timeout's interval when it is enabled again.
    fileprivate func toggle(_ timeout: OpaquePointer) {
        remove(timeout)
        add(timeout)
    }

    /// On the loop's thread, when the timerfd is readable: lets libdbus handle every timeout that is due, which
    /// queues a `NoReply` for the loop to dispatch, and sets the timer for the next.
    func handleDue() {
        var expirations: UInt64 = 0
        _ = read(fileDescriptor, &expirations, MemoryLayout<UInt64>.size)
        let now = ContinuousClock.now
        let due = state.withLock { state -> [OpaquePointer] in
            let due = state.entries.filter { $0.due <= now }.map(\.timeout)
            state.entries.removeAll { $0.due <= now }
            state.armed = state.entries.map(\.due).min()
            if let next = state.armed { arm(after: now.duration(to: next)) }
            return due
        }
        // Outside the lock: libdbus takes the connection's lock and may call `remove` from inside.
        for timeout in due { _ = dbus_timeout_handle(timeout) }
    }

    /// Sets the timer to go off once, `delay` from now; at least a nanosecond, since zero would disarm it.
    private func arm(after delay: Duration) {
        let (seconds, attoseconds) = max(delay, .nanoseconds(1)).components
        var setting = itimerspec()
        setting.it_value.tv_sec = Int(seconds)
        setting.it_value.tv_nsec = Int(attoseconds / 1_000_000_000)
        timerfd_settime(fileDescriptor, 0, &setting, nil)
    }
}

private func addTimeout(_ timeout: OpaquePointer?, _ box: UnsafeMutableRawPointer?) -> dbus_bool_t {
    guard let timeout, let box else { return 0 }
    Unmanaged<CallTimeouts>.fromOpaque(box).takeUnretainedValue().add(timeout)
    return 1
}

private func removeTimeout(_ timeout: OpaquePointer?, _ box: UnsafeMutableRawPointer?) {
    guard let timeout, let box else { return }
    Unmanaged<CallTimeouts>.fromOpaque(box).takeUnretainedValue().remove(timeout)
}

private func toggleTimeout(_ timeout: OpaquePointer?, _ box: UnsafeMutableRawPointer?) {
    guard let timeout, let box else { return }
    Unmanaged<CallTimeouts>.fromOpaque(box).takeUnretainedValue().toggle(timeout)
}

private func releaseTimeouts(_ box: UnsafeMutableRawPointer?) {
    guard let box else { return }
    Unmanaged<CallTimeouts>.fromOpaque(box).release()
}
