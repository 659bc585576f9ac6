// SPDX-License-Identifier: Apache-2.0
internal import DBusKit
import ProgramSupport

/// Why an awaited call gave no value: the bus's or the peer's error, or the awaiting task was cancelled.
enum CallFailure: Error, Sendable {
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
/// It is not generic and resumes an unchecked continuation (its state makes every resume happen once): a call
/// costs the client only a few microseconds, of which generic metadata looked up at run time or a checked
/// continuation's canary would be a measurable share.
final class InFlightCall: Sendable {
    typealias Outcome = Result<HandedReply, CallFailure>

    /// The outcome is kept here, not passed through the continuation, and the resumed task takes it under the
    /// lock (`outcome()`): the reply was made on the loop's thread, and the lock is what orders it before the
    /// task's reads in ThreadSanitizer's eyes too, which cannot see the concurrency runtime's handover when the
    /// reply comes before the task has finished suspending (docs/testing.md, "Sanitizers").
    private enum State {
        case new
        case waiting(UnsafeContinuation<Void, Never>)
        case abandoned
        case finished(Outcome)
    }

    private let state = Lock(State.new)
    private let onAbandoned: (@Sendable (Message) -> Void)?
    private let resumes: TurnEndResumes

    init(resumes: TurnEndResumes, onAbandoned: (@Sendable (Message) -> Void)?) {
        self.resumes = resumes
        self.onAbandoned = onAbandoned
    }

    /// Starts waiting; false, with the continuation resumed, when the task was cancelled already.
    func start(_ continuation: UnsafeContinuation<Void, Never>) -> Bool {
        state.withLock { state in
            guard case .new = state else {
                continuation.resume()
                return false
            }
            state = .waiting(continuation)
            return true
        }
    }

    /// What the resumed task gets: the reply or the failure, `cancelled` once it was abandoned.
    func outcome() -> Outcome {
        state.withLock { state in
            guard case .finished(let outcome) = state else { return .failure(.cancelled) }
            return outcome
        }
    }

    /// The task was cancelled: it resumes at once with `cancelled`.
    func abandon() {
        let waiting = state.withLock { state -> UnsafeContinuation<Void, Never>? in
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
        waiting?.resume()
    }

    /// The reply, or the failure to send.
    func finish(_ outcome: Outcome) {
        let (waiting, wasAbandoned) = state.withLock { state -> (UnsafeContinuation<Void, Never>?, Bool) in
            switch state {
            case .waiting(let continuation):
                state = .finished(outcome)
                return (continuation, false)
            case .abandoned:
                state = .finished(.failure(.cancelled))
                return (nil, true)
            case .new, .finished:
                return (nil, false)
            }
        }
        if let waiting {
            waiting.resume()
        } else if wasAbandoned, case .success(let reply) = outcome {
            onAbandoned?(reply.value)
        }
    }

}

extension InFlightCall: ReplyWaiter {
    /// On the loop's thread: the reply, or `NoReply` once the deadline passed, or `Disconnected`, which the task
    /// gets at the end of the loop's turn (`TurnEndResumes`).
    func replyArrived(_ result: Result<Message, DBusError>) {
        let outcome: Outcome = switch result {
        case .success(let reply): reply.error.map { .failure(.bus($0)) } ?? .success(HandedReply(reply))
        case .failure(let error): .failure(.bus(error))
        }
        resumes.finish(self, with: outcome)
    }
}
