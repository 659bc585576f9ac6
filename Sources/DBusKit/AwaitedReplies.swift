// SPDX-License-Identifier: Apache-2.0
internal import CDBus
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ProgramSupport

/// What waits for the reply to one call: it is given the reply (an error reply as a message too), or `NoReply`
/// once the call's deadline has passed, or `Disconnected` once its connection's loop has ended; exactly once, on
/// the loop's thread.
package protocol ReplyWaiter: AnyObject {
    func replyArrived(_ result: Result<Message, DBusError>)
}

/// The calls a connection awaits the replies to, by serial, each until its deadline: the one way the project waits
/// for a reply on a connection that a loop runs, whether the call was sent from the loop's thread
/// (`Connection.send(_:timeout:onReply:)`) or from a task's (the library's shared connection). A program with no
/// loop (the command's `begin`) blocks in libdbus instead (`Connection.call`).
///
/// Replies are matched here, when the connection's router hands them over, not through libdbus's pending calls:
/// libdbus builds each pending call's `NoReply` error message in advance, in case it is needed, which was a fifth
/// of the sending thread's work per call. A timerfd set to the earliest deadline wakes the loop when one passes;
/// arming it is one system call, made only for a call due before every other. A lock guards the table, since
/// calls are sent from any thread; the waiters themselves are only called on the loop's thread.
package final class AwaitedReplies: @unchecked Sendable {
    private struct State {
        var calls = ReplyWaits<any ReplyWaiter>()
        /// When the timerfd goes off next, if it is set; a call answered before then only costs the loop one look.
        var armed: MonotonicTime?
        /// From the end of the loop on: nothing is sent any more.
        var isClosed = false
    }

    private let state = Lock(State())
    /// Readable when the earliest deadline may have passed; the loop that runs the connection watches it.
    package let fileDescriptor: Int32

    init() {
        fileDescriptor = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        precondition(fileDescriptor >= 0, "timerfd_create failed: errno \(errno)")
    }

    deinit {
        close(fileDescriptor)
    }

    /// Sends `message` on `connection` and awaits its reply for `waiter` until `timeout` has passed; false, with
    /// nothing sent, once the loop has ended. From any thread: the message is sent under the lock that the reply
    /// is matched under, so the call is known before its reply comes.
    func send(_ message: Message, on connection: OpaquePointer, timeout: Duration, for waiter: any ReplyWaiter) -> Bool {
        let deadline = MonotonicTime.now + timeout
        return state.withLock { state in
            guard !state.isClosed else { return false }
            let serial = DBusKit.send(message, on: connection)
            state.calls.insert(waiter, for: serial, until: deadline)
            if state.armed.map({ deadline < $0 }) ?? true {
                state.armed = deadline
                arm(after: MonotonicTime.now.duration(to: deadline))
            }
            return true
        }
    }

    /// On the loop's thread, when the timerfd is readable: every call past its deadline gets `NoReply`, and the
    /// timer is set for the next.
    package func expireOverdue() {
        var expirations: UInt64 = 0
        _ = read(fileDescriptor, &expirations, MemoryLayout<UInt64>.size)
        let now = MonotonicTime.now
        let overdue = state.withLock { state in
            let (overdue, next) = state.calls.removeOverdue(at: now)
            state.armed = next
            if let next { arm(after: now.duration(to: next)) }
            return overdue
        }
        for waiter in overdue {
            waiter.replyArrived(.failure(.noReplyInTime))
        }
    }

    /// On the loop's thread once it has ended: every call still awaited gets `Disconnected`, and so does every
    /// call sent from now on.
    package func closeAll() {
        let waiters = state.withLock { state in
            state.isClosed = true
            return state.calls.removeAll()
        }
        for waiter in waiters {
            waiter.replyArrived(.failure(DBusError(.disconnected, "the connection to the bus was lost")))
        }
    }

    /// On the loop's thread: hands `reply` to the call it answers; false when no call awaits it.
    func deliver(_ reply: OpaquePointer) -> Bool {
        let serial = dbus_message_get_reply_serial(reply)
        guard let waiter = state.withLock({ $0.calls.remove(serial) }) else { return false }
        waiter.replyArrived(.success(Message(borrowing: reply)))
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

/// A reply handler of a call sent from the loop's thread, which it is only ever called on.
final class ReplyHandler: ReplyWaiter {
    private let handler: (Result<MessageReader, DBusError>) -> Void

    init(_ handler: @escaping (Result<MessageReader, DBusError>) -> Void) {
        self.handler = handler
    }

    func replyArrived(_ result: Result<Message, DBusError>) {
        switch result {
        case .success(let reply):
            if let error = reply.error { handler(.failure(error)) } else { handler(.success(reply.arguments())) }
        case .failure(let error):
            handler(.failure(error))
        }
    }
}
