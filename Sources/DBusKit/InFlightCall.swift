internal import CDBus
import Synchronization

/// Why an awaited call gave no value: the bus's or the peer's error, or the awaiting task was cancelled.
public enum CallFailure: Error, Sendable {
    case bus(DBusError)
    case cancelled
}

/// One call awaited by a task, between that task and the thread that receives its reply: whichever of the reply and
/// the task's cancellation comes first decides, exactly once. A reply that comes after the task gave up goes to
/// `onAbandoned` instead, so that what the peer did anyway can be undone.
final class InFlightCall<Value: Sendable>: Sendable {
    private enum State {
        case new
        case waiting(CheckedContinuation<Result<Value, CallFailure>, Never>)
        case abandoned
        case finished
    }

    private let state = Mutex(State.new)
    private let onAbandoned: (@Sendable (Value) -> Void)?

    init(onAbandoned: (@Sendable (Value) -> Void)?) {
        self.onAbandoned = onAbandoned
    }

    /// Starts waiting; false, with the continuation resumed, when the task was cancelled already.
    func start(_ continuation: CheckedContinuation<Result<Value, CallFailure>, Never>) -> Bool {
        state.withLock { state in
            guard case .new = state else {
                continuation.resume(returning: .failure(.cancelled))
                return false
            }
            state = .waiting(continuation)
            return true
        }
    }

    /// The task was cancelled: it resumes at once with `cancelled`.
    func abandon() {
        let waiting = state.withLock { state -> CheckedContinuation<Result<Value, CallFailure>, Never>? in
            switch state {
            case .new:
                state = .abandoned
                return nil
            case .waiting(let continuation):
                state = .abandoned
                return continuation
            case .abandoned, .finished:
                return nil
            }
        }
        waiting?.resume(returning: .failure(.cancelled))
    }

    /// The reply, or the failure to send.
    func finish(_ result: Result<Value, CallFailure>) {
        let (waiting, wasAbandoned) = state.withLock {
            state -> (CheckedContinuation<Result<Value, CallFailure>, Never>?, Bool) in
            switch state {
            case .waiting(let continuation):
                state = .finished
                return (continuation, false)
            case .abandoned:
                state = .finished
                return (nil, true)
            case .new, .finished:
                return (nil, false)
            }
        }
        if let waiting {
            waiting.resume(returning: result)
        } else if wasAbandoned, case .success(let value) = result {
            onAbandoned?(value)
        }
    }
}

/// Hands a libdbus pending call's reply to `deliver`, once: from the notify function libdbus calls on the thread
/// that dispatches the reply, or from the sender when the reply came before the notify function was set.
final class ReplyNotification: Sendable {
    private let deliver: @Sendable (Message) -> Void
    private let isDelivered = Atomic(false)

    init(deliver: @escaping @Sendable (Message) -> Void) {
        self.deliver = deliver
    }

    /// Takes over `pending` (one reference), which was just sent.
    func attach(to pending: OpaquePointer) {
        let box = Unmanaged.passRetained(self).toOpaque()
        guard dbus_pending_call_set_notify(pending, replyArrived, box, releaseNotification) != 0 else {
            fatalError("libdbus is out of memory setting a reply's notification")
        }
        // libdbus calls no notify function set after the reply came.
        if dbus_pending_call_get_completed(pending) != 0 { take(from: pending) }
        dbus_pending_call_unref(pending)
    }

    fileprivate func take(from pending: OpaquePointer) {
        guard !isDelivered.exchange(true, ordering: .acquiringAndReleasing),
              let reply = dbus_pending_call_steal_reply(pending)
        else { return }
        deliver(Message(owning: reply))
    }
}

private func replyArrived(_ pending: OpaquePointer?, _ box: UnsafeMutableRawPointer?) {
    guard let pending, let box else { return }
    Unmanaged<ReplyNotification>.fromOpaque(box).takeUnretainedValue().take(from: pending)
}

private func releaseNotification(_ box: UnsafeMutableRawPointer?) {
    guard let box else { return }
    Unmanaged<ReplyNotification>.fromOpaque(box).release()
}
