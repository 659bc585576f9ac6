/// The waits for replies to calls a connection sent, by the calls' serials, each until its deadline: the loop's
/// own (`MessageRouter`) and those of the tasks sharing a connection (`AwaitedReplies`).
struct ReplyWaits<Waiter> {
    private var waits: [UInt32: (deadline: ContinuousClock.Instant, waiter: Waiter)] = [:]

    var isEmpty: Bool { waits.isEmpty }

    mutating func insert(_ waiter: Waiter, for serial: UInt32, until deadline: ContinuousClock.Instant) {
        waits[serial] = (deadline, waiter)
    }

    /// The waiter for the reply to `serial`, which stops waiting; nil when none waits.
    mutating func remove(_ serial: UInt32) -> Waiter? {
        waits.removeValue(forKey: serial)?.waiter
    }

    /// Takes out the waiters whose deadline has passed at `now`, in the order their calls were sent, and tells
    /// the next deadline of those left.
    mutating func removeOverdue(at now: ContinuousClock.Instant) -> (overdue: [Waiter], next: ContinuousClock.Instant?) {
        var overdue: [(serial: UInt32, waiter: Waiter)] = []
        var next: ContinuousClock.Instant?
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
    mutating func removeAll() -> [Waiter] {
        defer { waits.removeAll() }
        return waits.sorted { $0.key < $1.key }.map(\.value.waiter)
    }
}

extension DBusError {
    /// What a call that waited for its reply until its deadline ends with.
    static var noReplyInTime: DBusError { DBusError(.noReply, "no reply came before the call's timeout") }
}
