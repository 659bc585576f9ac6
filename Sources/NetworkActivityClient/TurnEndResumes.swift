// SPDX-License-Identifier: Apache-2.0
internal import DBusKit
import ProgramSupport
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Replies that the loop's thread holds back from their awaiting tasks until the end of its turn, when it no
/// longer holds libdbus's connection lock: a task resumed in the middle of dispatch would, on a busy or a single
/// CPU, run at once, send its next call, and wait for that lock while the loop waits for the CPU, two switches
/// more per call.
final class TurnEndResumes: Sendable {
    private let held = Lock<[(InFlightCall, InFlightCall.Outcome)]>([])
    private let loopThread = Atomic<UInt>(0)

    /// Called once on the loop's thread, before it runs.
    func bindToCurrentThread() {
        loopThread.store(UInt(pthread_self()), ordering: .releasing)
    }

    /// On the loop's thread, holds the outcome until `resumeHeld()`; on any other, finishes the call now.
    func finish(_ call: InFlightCall, with outcome: InFlightCall.Outcome) {
        guard loopThread.load(ordering: .acquiring) == UInt(pthread_self()) else { return call.finish(outcome) }
        held.withLock { $0.append((call, outcome)) }
    }

    /// On the loop's thread, at the end of a turn: finishes the calls held, in order.
    func resumeHeld() {
        let calls = held.withLock { held in
            var taken: [(InFlightCall, InFlightCall.Outcome)] = []
            swap(&taken, &held)
            return taken
        }
        for (call, outcome) in calls { call.finish(outcome) }
    }
}
