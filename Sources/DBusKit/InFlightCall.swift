internal import CDBus
import Synchronization

/// Why an awaited call gave no value: the bus's or the peer's error, or the awaiting task was cancelled.
public enum CallFailure: Error, Sendable {
    case bus(DBusError)
    case cancelled
}

/// A reply on its way from the loop's thread, which received it, to the one task that awaits it and alone reads it
/// from then on.
typealias HandedReply = UnsafeSendable<Message>

/// One call awaited by a task, between that task and the thread that receives its reply: whichever of the reply and
/// the task's cancellation comes first decides, exactly once. A reply that comes after the task gave up goes to
/// `onAbandoned` instead, so that what the peer did anyway can be undone.
///
/// It is its libdbus pending call's notification too, and it is not generic and resumes an unchecked continuation
/// (its state makes every resume happen once): a call costs the client only a few microseconds, of which another
/// object, generic metadata looked up at run time or a checked continuation's canary would be a measurable share.
final class InFlightCall: Sendable {
    typealias Outcome = Result<HandedReply, CallFailure>

    private enum State {
        case new
        case waiting(UnsafeContinuation<Outcome, Never>)
        case abandoned
        case finished
    }

    private let state = Mutex(State.new)
    private let onAbandoned: (@Sendable (Message) -> Void)?
    /// Whether the reply was taken from libdbus, by its notification or by `attach` when it came first.
    private let isReplyTaken = Atomic(false)
    /// The connection the call is sent on, asked whether it is still connected when libdbus says `NoReply`.
    private let connection: UnsafeSendable<OpaquePointer>
    private let resumes: TurnEndResumes

    init(on connection: UnsafeSendable<OpaquePointer>, resumes: TurnEndResumes,
         onAbandoned: (@Sendable (Message) -> Void)?) {
        self.connection = connection
        self.resumes = resumes
        self.onAbandoned = onAbandoned
    }

    /// Starts waiting; false, with the continuation resumed, when the task was cancelled already.
    func start(_ continuation: UnsafeContinuation<Outcome, Never>) -> Bool {
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
        let waiting = state.withLock { state -> UnsafeContinuation<Outcome, Never>? in
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
    func finish(_ outcome: Outcome) {
        let (waiting, wasAbandoned) = state.withLock { state -> (UnsafeContinuation<Outcome, Never>?, Bool) in
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
            waiting.resume(returning: outcome)
        } else if wasAbandoned, case .success(let reply) = outcome {
            onAbandoned?(reply.value)
        }
    }

    /// Takes over `pending` (one reference), just sent: its reply, or libdbus's `NoReply` when the timeout passed,
    /// goes to `finish`, on the loop's thread at the end of its turn (`TurnEndResumes`).
    func attach(to pending: OpaquePointer) {
        let box = Unmanaged.passRetained(self).toOpaque()
        guard dbus_pending_call_set_notify(pending, replyArrived, box, releaseCall) != 0 else {
            fatalError("libdbus is out of memory setting a reply's notification")
        }
        // libdbus calls no notify function set after the reply came.
        if dbus_pending_call_get_completed(pending) != 0 { takeReply(from: pending) }
        dbus_pending_call_unref(pending)
    }

    fileprivate func takeReply(from pending: OpaquePointer) {
        guard !isReplyTaken.exchange(true, ordering: .acquiringAndReleasing),
              let raw = dbus_pending_call_steal_reply(pending)
        else { return }
        let reply = Message(owning: raw)
        let outcome: Outcome
        if var error = reply.error {
            // libdbus answers the calls still waiting when the connection goes with NoReply.
            if error.name == .noReply, dbus_connection_get_is_connected(connection.value) == 0 {
                error = DBusError(.disconnected, "the connection to the bus was lost")
            }
            outcome = .failure(.bus(error))
        } else {
            outcome = .success(HandedReply(reply))
        }
        resumes.finish(self, with: outcome)
    }
}

private func replyArrived(_ pending: OpaquePointer?, _ box: UnsafeMutableRawPointer?) {
    guard let pending, let box else { return }
    Unmanaged<InFlightCall>.fromOpaque(box).takeUnretainedValue().takeReply(from: pending)
}

private func releaseCall(_ box: UnsafeMutableRawPointer?) {
    guard let box else { return }
    Unmanaged<InFlightCall>.fromOpaque(box).release()
}
