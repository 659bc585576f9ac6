// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs a connection on the calling thread, and any more the program adds (a service on the session bus that
/// follows one on the system bus): a single `poll()` over their sockets, the timers of the replies they await
/// (`AwaitedReplies`) and any other descriptors the program adds, then dispatch, then sleep until the next message
/// or the next deadline. Nothing wakes it otherwise, so an idle program uses no CPU.
public final class EventLoop {
    /// A connection the loop runs, with the descriptors libdbus asks it to watch.
    private final class RunConnection {
        let connection: Connection
        let watches = SocketWatches()
        /// For an added connection: called once when it is lost, after which the loop runs it no more.
        let onDisconnect: (() -> Void)?
        var disconnected = false

        init(_ connection: Connection, wakeUps: LoopWakeUps, onDisconnect: (() -> Void)?) {
            precondition(!connection.hasEventLoop, "a connection is run by one event loop")
            connection.hasEventLoop = true
            self.connection = connection
            self.onDisconnect = onDisconnect
            watches.install(on: connection.raw)
            wakeUps.install(on: connection.raw)
            connection.router.disconnectHandler = { [unowned self] in disconnected = true }
        }

        /// Dispatches every message queued.
        func dispatch() {
            connection.dispatchAll()
        }

        /// libdbus queues `Disconnected` once it finds the connection closed, and a dispatch delivers it: asking
        /// libdbus instead (`dbus_connection_get_is_connected`) takes the connection's lock on every turn.
        var isLost: Bool { disconnected }
    }

    /// The loop's own connection first: losing it ends `run()`.
    private var connections: [RunConnection]
    private var sources: [(fd: Int32, onReadable: () -> Void)] = []
    /// Woken by libdbus when another thread left a message queued on one of the connections.
    private let wakeUps = LoopWakeUps()
    private var isRunning = false
    /// Whether connections or sources came or went since the descriptors to poll were collected.
    private var pollSetIsStale = true

    /// Called once per turn after every queued message has been dispatched: the place to fire due timers and
    /// to send what was coalesced. Returns how long the loop may sleep at most; nil to wait for I/O only.
    public var endOfTurn: () -> Duration? = { nil }

    /// A connection is run by one loop, which it belongs to from then on.
    public init(connection: Connection) {
        connections = [RunConnection(connection, wakeUps: wakeUps, onDisconnect: nil)]
    }

    /// Runs `connection` too, on the loop's thread; when it is lost, `onDisconnect` is called once and the loop
    /// goes on without it.
    public func add(_ connection: Connection, onDisconnect: @escaping () -> Void) {
        let added = RunConnection(connection, wakeUps: wakeUps, onDisconnect: onDisconnect)
        if isRunning { connection.bindToLoopThread() }
        connections.append(added)
        pollSetIsStale = true
    }

    /// Calls `onReadable` on the loop's thread whenever `fileDescriptor` can be read.
    public func watch(fileDescriptor: Int32, onReadable: @escaping () -> Void) {
        sources.append((fileDescriptor, onReadable))
        pollSetIsStale = true
    }

    /// Makes `run()` return at the end of the current turn.
    public func stop() {
        isRunning = false
    }

    /// Runs until `stop()`; throws `Disconnected` when the loop's own connection is lost. From now on the
    /// connections may be used on this thread only.
    public func run() throws(DBusError) {
        for run in connections { run.connection.bindToLoopThread() }
        wakeUps.bindToCurrentThread()
        isRunning = true
        var descriptors: [pollfd] = []
        var polledWatches: [OpaquePointer] = []
        /// For each polled watch, the index of its connection in `connections`.
        var polledOwners: [Int] = []
        /// The connections whose awaited replies' timers are polled, after the watches.
        var polledTimers: [AwaitedReplies] = []
        // Every turn works through methods of the connections and indices of the sources: each value read out
        // of an array or a class's property to be used is retained and released around the use.
        let own = connections[0]
        while true {
            // Blocking calls made by handlers may have queued messages; they are dispatched before any sleep.
            // The loop's own connection through `own`: read out of `connections`, it would be retained and released.
            own.dispatch()
            if connections.count > 1 { dispatchAddedConnections() }
            guard !own.isLost else {
                throw DBusError(.disconnected, "the connection to the bus was lost")
            }
            // The loop takes no connection lock from here until it sleeps, so what the end of the turn wakes (a
            // task awaiting its reply) does not wait for one.
            let blockingCallsBefore = own.connection.blockingCalls
            let sleepLimit = endOfTurn()
            guard isRunning else { return }
            // A blocking call at the end of the turn (a question to the bus) may have queued what arrived meanwhile.
            if own.connection.blockingCalls != blockingCallsBefore { continue }
            if connections.count > 1 { dropLostConnections() }
            // The descriptors are collected again only when a watch changed: libdbus enables a socket's write
            // watch only while a message waits to be written, so most turns poll what the last one did.
            var watchesChanged = own.watches.takeChange()
            if connections.count > 1, addedConnectionsWatchesChanged() { watchesChanged = true }
            if watchesChanged || pollSetIsStale {
                pollSetIsStale = false
                descriptors.removeAll(keepingCapacity: true)
                polledWatches.removeAll(keepingCapacity: true)
                polledOwners.removeAll(keepingCapacity: true)
                for (index, run) in connections.enumerated() {
                    run.watches.collect(into: &descriptors, polled: &polledWatches)
                    while polledOwners.count < polledWatches.count { polledOwners.append(index) }
                }
                polledTimers = connections.map(\.connection.awaited)
                for timers in polledTimers {
                    descriptors.append(pollfd(fd: timers.fileDescriptor, events: Int16(POLLIN), revents: 0))
                }
                for index in sources.indices {
                    descriptors.append(pollfd(fd: sources[index].fd, events: Int16(POLLIN), revents: 0))
                }
                descriptors.append(pollfd(fd: wakeUps.fileDescriptor, events: Int16(POLLIN), revents: 0))
            }
            let timeout = sleepLimit.map { Int32(clamping: max(0, $0.milliseconds)) } ?? -1
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 {
                guard errno == EINTR else { throw DBusError(.failed, "poll failed: errno \(errno)") }
                continue
            }
            guard ready > 0 else { continue }
            for (index, watch) in polledWatches.enumerated() where descriptors[index].revents != 0 {
                connections[polledOwners[index]].watches.handle(watch, revents: descriptors[index].revents)
            }
            for (index, timers) in polledTimers.enumerated() where descriptors[polledWatches.count + index].revents != 0 {
                timers.expireOverdue()
            }
            let sourcesStart = polledWatches.count + polledTimers.count
            for index in sources.indices where descriptors[sourcesStart + index].revents != 0 {
                sources[index].onReadable()
            }
            // The wake-up is polled last: a source's handler may have added sources meanwhile.
            if descriptors[descriptors.count - 1].revents != 0 { writeWhatOthersQueued() }
        }
    }

    // The added connections' part of a turn is apart from `run`, where most turns would step over its code: a
    // service without a system bus has none.

    /// Writes what other threads queued on any connection, once libdbus woke the loop for it.
    private func writeWhatOthersQueued() {
        wakeUps.clear()
        for index in connections.indices {
            connections[index].connection.writeWhatOthersQueued()
        }
    }

    /// Dispatches what the added connections queued.
    private func dispatchAddedConnections() {
        for index in connections.indices.dropFirst() {
            connections[index].dispatch()
        }
    }

    /// Whether a watch of an added connection changed since the last turn; takes every change.
    private func addedConnectionsWatchesChanged() -> Bool {
        var changed = false
        for index in connections.indices.dropFirst() where connections[index].watches.takeChange() {
            changed = true
        }
        return changed
    }

    /// Stops running the added connections that were lost, telling each owner once.
    private func dropLostConnections() {
        for run in connections.dropFirst() where run.isLost {
            run.disconnected = true
            // Nothing will answer what it awaited.
            run.connection.awaited.closeAll()
            run.onDisconnect?()
        }
        let before = connections.count
        connections.removeAll { $0.onDisconnect != nil && $0.disconnected }
        if connections.count != before { pollSetIsStale = true }
    }
}
