internal import DBusKit
internal import CDBus
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ProgramSupport

/// The calls that tasks await on a `SharedConnection`, found by serial when their replies come, each with the
/// time it stops waiting.
///
/// Replies are matched here, by a libdbus filter on the loop's thread, not through libdbus's pending calls:
/// libdbus builds each pending call's `NoReply` error message in advance, in case it is needed, which was a
/// fifth of the sending thread's work per call. A timerfd set to the earliest deadline wakes the loop when one
/// passes; arming it is one system call, made only for a call due before every other.
final class AwaitedReplies: Sendable {
    private struct State {
        var calls = ReplyWaits<InFlightCall>()
        /// When the timerfd goes off next, if it is set; a call answered before then only costs the loop one look.
        var armed: MonotonicTime?
        /// From the end of the loop on: nothing is sent any more.
        var isClosed = false
    }

    private let state = Lock(State())
    /// Readable when the earliest deadline may have passed.
    let fileDescriptor: Int32

    init() {
        fileDescriptor = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        precondition(fileDescriptor >= 0, "timerfd_create failed: errno \(errno)")
    }

    deinit {
        close(fileDescriptor)
    }

    /// Installs the filter that hands replies over; libdbus holds this object retained until it frees the filter
    /// with the connection. Installed after the connection's router, which keeps the replies the loop awaits.
    func install(on connection: OpaquePointer) {
        let box = Unmanaged.passRetained(self).toOpaque()
        guard dbus_connection_add_filter(connection, routeAwaitedReply, box, releaseAwaitedReplies) != 0 else {
            fatalError("libdbus is out of memory adding a filter")
        }
    }

    /// Sends `message` on `connection`, from any thread, and awaits its reply for `call` until `timeout` has
    /// passed; false, with nothing sent, once the loop has ended.
    func send(_ message: Message, on connection: OpaquePointer, for call: InFlightCall, timeout: Duration) -> Bool {
        let deadline = MonotonicTime.now + timeout
        return state.withLock { state in
            guard !state.isClosed else { return false }
            // Sent under the lock, which the loop takes to match the reply: the call is known before its reply.
            let serial = DBusKit.send(message, on: connection)
            state.calls.insert(call, for: serial, until: deadline)
            if state.armed.map({ deadline < $0 }) ?? true {
                state.armed = deadline
                arm(after: MonotonicTime.now.duration(to: deadline))
            }
            return true
        }
    }

    /// On the loop's thread, when the timerfd is readable: every call past its deadline gets `NoReply`, and the
    /// timer is set for the next.
    func expireOverdue() {
        var expirations: UInt64 = 0
        _ = read(fileDescriptor, &expirations, MemoryLayout<UInt64>.size)
        let now = MonotonicTime.now
        let overdue = state.withLock { state in
            let (overdue, next) = state.calls.removeOverdue(at: now)
            state.armed = next
            if let next { arm(after: now.duration(to: next)) }
            return overdue
        }
        for call in overdue {
            call.reply(with: .failure(.bus(.noReplyInTime)))
        }
    }

    /// On the loop's thread once it has ended: every call still awaited gets `Disconnected`, and so does every
    /// call sent from now on.
    func closeAll() {
        let calls = state.withLock { state in
            state.isClosed = true
            return state.calls.removeAll()
        }
        for call in calls {
            call.finish(.failure(.bus(DBusKit.DBusError(.disconnected, "the connection to the bus was lost"))))
        }
    }

    /// Hands `reply` to the call it answers; false when no call awaits it.
    fileprivate func deliver(_ reply: OpaquePointer) -> Bool {
        let serial = dbus_message_get_reply_serial(reply)
        guard let call = state.withLock({ $0.calls.remove(serial) }) else { return false }
        let message = Message(borrowing: reply)
        call.reply(with: message.error.map { .failure(.bus($0)) } ?? .success(HandedReply(message)))
        return true
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

private func routeAwaitedReply(
    _ connection: OpaquePointer?, _ message: OpaquePointer?, _ box: UnsafeMutableRawPointer?
) -> DBusHandlerResult {
    guard let message, let box else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    switch dbus_message_get_type(message) {
    case CDBUS_MESSAGE_TYPE_METHOD_RETURN, CDBUS_MESSAGE_TYPE_ERROR:
        let replies = Unmanaged<AwaitedReplies>.fromOpaque(box).takeUnretainedValue()
        return replies.deliver(message) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    default:
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }
}

private func releaseAwaitedReplies(_ box: UnsafeMutableRawPointer?) {
    guard let box else { return }
    Unmanaged<AwaitedReplies>.fromOpaque(box).release()
}
