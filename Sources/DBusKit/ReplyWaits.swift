// SPDX-License-Identifier: Apache-2.0
import ProgramSupport

/// The waits for replies to calls a connection sent, by the calls' serials, each until its deadline: the table that
/// `AwaitedReplies` keeps under its lock.
package struct ReplyWaits<Waiter> {
    private var waits: [UInt32: (deadline: MonotonicTime, waiter: Waiter)] = [:]

    package init() {}

    package var isEmpty: Bool { waits.isEmpty }

    package mutating func insert(_ waiter: Waiter, for serial: UInt32, until deadline: MonotonicTime) {
        waits[serial] = (deadline, waiter)
    }

    /// The waiter for the reply to `serial`, which stops waiting; nil when none waits.
    package mutating func remove(_ serial: UInt32) -> Waiter? {
        waits.removeValue(forKey: serial)?.waiter
    }

    /// Takes out the waiters whose deadline has passed at `now`, in the order their calls were sent, and tells
    /// the next deadline of those left.
    package mutating func removeOverdue(at now: MonotonicTime) -> (overdue: [Waiter], next: MonotonicTime?) {
        var overdue: [(serial: UInt32, waiter: Waiter)] = []
        var next: MonotonicTime?
        for (serial, wait) in waits {
            if wait.deadline <= now {
                overdue.append((serial, wait.waiter))
            } else {
                next = min(next ?? wait.deadline, wait.deadline)
            }
        }
        for (serial, _) in overdue { waits.removeValue(forKey: serial) }
        return (overdue.sorted { $0.serial < $1.serial }.map(\.waiter), next)
    }

    /// Takes out every waiter, in the order their calls were sent.
    package mutating func removeAll() -> [Waiter] {
        defer { waits.removeAll() }
        return waits.sorted { $0.key < $1.key }.map(\.value.waiter)
    }
}

extension DBusError {
    /// What a call that waited for its reply until its deadline ends with.
    package static var noReplyInTime: DBusError { DBusError(.noReply, "no reply came before the call's timeout") }
}
