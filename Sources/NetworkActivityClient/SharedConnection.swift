// SPDX-License-Identifier: Apache-2.0
internal import DBusKit
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A connection that every thread and task may share, served by an event loop on a thread of its own.
///
/// A call is sent from the caller's thread (libdbus locks the connection for that) and suspends its task until the
/// loop's thread dispatches the reply, so no thread waits for the bus; the loop fires its timeout too (the
/// connection's `AwaitedReplies`, in DBusKit). Work that needs the `Connection` itself (subscribing to signals) is
/// handed to the loop's thread. The thread ends when the connection is released or the bus goes away.
final class SharedConnection: Sendable {
    /// What this thread and the tasks' may do while the loop runs the connection: send, and tell its name.
    private let shared: ConnectionFromOtherThreads
    /// Touched only on the loop's thread, through `onLoop`, and released with this object.
    private let served: UnsafeSendable<(connection: Connection, loop: EventLoop)>
    private let jobs = LoopJobs()
    private let resumes = TurnEndResumes()
    /// Touched only on the loop's thread: what runs at the end of each of its turns (`onEachTurnEnd`).
    private let turnEndHooks = UnsafeSendable(TurnEndHooks())
    private let loopEnded = Flag()
    private nonisolated(unsafe) var thread = pthread_t()

    /// Connects and registers with the bus, then starts the loop's thread, which inherits the calling thread's
    /// signal mask. `onLoss` runs on the loop's thread when the bus goes away, after which every call throws
    /// `Disconnected`.
    init(bus: Connection.Bus, onLoss: @escaping @Sendable () -> Void = {}) throws(DBusKit.DBusError) {
        let connection = try Connection(bus: bus)
        shared = connection.fromOtherThreads
        let awaited = connection.awaited
        let ended = loopEnded
        let loop = EventLoop(connection: connection)
        loop.watch(fileDescriptor: jobs.fileDescriptor) { [jobs] in jobs.runQueued() }
        loop.endOfTurn = { [resumes, turnEndHooks] in
            resumes.resumeHeld()
            turnEndHooks.value.runAll()
            return nil
        }
        served = UnsafeSendable((connection, loop))
        let body = LoopThreadBody { [resumes, jobs, turnEndHooks] in
            nameCurrentThread("dbus-shared")
            resumes.bindToCurrentThread()
            // The loop ends when it is stopped or the bus is lost; either way nothing more is sent.
            let lost = (try? loop.run()) == nil
            ended.raise()
            // Nothing runs on this thread any more: what waits to, and holds this object, would hold it for ever.
            jobs.close()
            turnEndHooks.value.removeAll()
            // Every call still awaited ends as Disconnected; a loop that ends on a lost bus ends in the middle of
            // its turn, with replies it may hold still, and those outcomes are held too until this.
            awaited.closeAll()
            resumes.resumeHeld()
            if lost { onLoss() }
        }
        let started = pthread_create(&thread, nil, runLoopThread, Unmanaged.passRetained(body).toOpaque())
        precondition(started == 0, "pthread_create failed: \(started)")
    }

    deinit {
        jobs.post { [served] in served.value.loop.stop() }
        if pthread_equal(thread, pthread_self()) != 0 {
            pthread_detach(thread)
        } else {
            pthread_join(thread, nil)
        }
    }

    /// This connection's unique name on the bus, such as `:1.42`.
    var uniqueName: String { shared.uniqueName }

    /// Whether the loop still runs: false once the bus has gone away.
    var isOpen: Bool { !loopEnded.isRaised }

    /// Sends a method call and suspends until its reply, which the calling task alone reads from then on.
    ///
    /// - Parameter onAbandoned: given the reply when the task was cancelled before it came, on the loop's thread: to
    ///   undo what the peer did anyway.
    /// - Throws: `CallFailure.bus` with the peer's error reply, `NoReply` after `timeout`, or `Disconnected`;
    ///   `CallFailure.cancelled` at once when the task is cancelled.
    func call(
        _ message: Message, timeout: Duration, onAbandoned: (@Sendable (Message) -> Void)? = nil
    ) async throws(CallFailure) -> Message {
        guard !Task.isCancelled else { throw .cancelled }
        let call = InFlightCall(resumes: resumes, onAbandoned: onAbandoned)
        await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                guard call.start(continuation) else { return }
                if !shared.send(message, timeout: timeout, for: call) {
                    call.finish(.failure(.bus(DBusKit.DBusError(.disconnected, "the connection to the bus is closed"))))
                }
            }
        } onCancel: {
            call.abandon()
        }
        return try call.outcome().get().value
    }

    /// Sends a message that wants no reply and writes it out before returning, from any thread: it still reaches
    /// the peer before any later call of this connection.
    func sendWithoutReply(_ message: Message) {
        guard isOpen else { return }
        shared.sendWithoutReply(message)
    }

    /// On the loop's thread: runs `hook` at the end of each of the loop's turns, until `removeTurnEndHook`.
    func onEachTurnEnd(_ hook: @escaping () -> Void) -> Int {
        turnEndHooks.value.add(hook)
    }

    /// On the loop's thread: no longer runs the hook `onEachTurnEnd` returned `id` for.
    func removeTurnEndHook(_ id: Int) {
        turnEndHooks.value.remove(id)
    }

    /// Runs `job` on the loop's thread with the connection, in the order posted.
    func onLoop(_ job: @escaping @Sendable (Connection) -> Void) {
        jobs.post { [served] in job(served.value.connection) }
    }
}

/// What runs at the end of each turn of a loop, on its thread.
final class TurnEndHooks {
    private var hooks: [Int: () -> Void] = [:]
    private var nextID = 0

    func add(_ hook: @escaping () -> Void) -> Int {
        defer { nextID += 1 }
        hooks[nextID] = hook
        return nextID
    }

    func remove(_ id: Int) {
        hooks[id] = nil
    }

    func runAll() {
        for hook in hooks.values { hook() }
    }

    func removeAll() {
        hooks = [:]
    }
}

/// A flag any thread may raise and read.
final class Flag: Sendable {
    private let raised = Atomic(false)
    var isRaised: Bool { raised.load(ordering: .acquiring) }
    func raise() { raised.store(true, ordering: .releasing) }
}

/// A value that is shared between threads by a rule the compiler cannot see, which the holder states.
struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// What the loop's thread runs, boxed for `pthread_create`.
private final class LoopThreadBody {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

private func runLoopThread(_ box: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let box else { return nil }
    Unmanaged<LoopThreadBody>.fromOpaque(box).takeRetainedValue().run()
    return nil
}
