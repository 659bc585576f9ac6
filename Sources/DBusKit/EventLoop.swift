#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs one connection on the calling thread: a single `poll()` over the bus socket and any other descriptors
/// the program adds, then dispatch, then sleep until the next message or the next deadline. Nothing wakes it
/// otherwise, so an idle program uses no CPU.
public final class EventLoop {
    private let connection: Connection
    private let watches = SocketWatches()
    private var sources: [(fd: Int32, onReadable: () -> Void)] = []
    private var isRunning = false
    private var disconnected = false

    /// Called once per turn after every queued message has been dispatched: the place to fire due timers and
    /// to send what was coalesced. Returns how long the loop may sleep at most; nil to wait for I/O only.
    public var endOfTurn: () -> Duration? = { nil }

    /// A connection is run by one loop, which it belongs to from then on.
    public init(connection: Connection) {
        precondition(!connection.hasEventLoop, "a connection is run by one event loop")
        connection.hasEventLoop = true
        self.connection = connection
        connection.router.disconnectHandler = { [unowned self] in disconnected = true }
        watches.install(on: connection.raw)
    }

    /// Calls `onReadable` on the loop's thread whenever `fileDescriptor` can be read.
    public func watch(fileDescriptor: Int32, onReadable: @escaping () -> Void) {
        sources.append((fileDescriptor, onReadable))
    }

    /// Makes `run()` return at the end of the current turn.
    public func stop() {
        isRunning = false
    }

    /// Runs until `stop()`; throws `Disconnected` when the bus connection is lost. From now on the connection
    /// may be used on this thread only.
    public func run() throws(DBusError) {
        connection.bindToLoopThread()
        isRunning = true
        var descriptors: [pollfd] = []
        var polledWatches: [OpaquePointer] = []
        while true {
            // Blocking calls made by handlers may have queued messages; they are dispatched before any sleep.
            connection.dispatchAll()
            let sleepLimit = earlier(endOfTurn(), connection.router.expireOverdueReplies())
            guard isRunning else { return }
            guard !disconnected, connection.isConnected else {
                throw DBusError(.disconnected, "the connection to the bus was lost")
            }
            descriptors.removeAll(keepingCapacity: true)
            polledWatches.removeAll(keepingCapacity: true)
            watches.collect(into: &descriptors, polled: &polledWatches)
            for source in sources {
                descriptors.append(pollfd(fd: source.fd, events: Int16(POLLIN), revents: 0))
            }
            let timeout = sleepLimit.map { Int32(clamping: max(0, $0.milliseconds)) } ?? -1
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 {
                guard errno == EINTR else { throw DBusError(.failed, "poll failed: errno \(errno)") }
                continue
            }
            guard ready > 0 else { continue }
            for (index, watch) in polledWatches.enumerated() where descriptors[index].revents != 0 {
                watches.handle(watch, revents: descriptors[index].revents)
            }
            for (index, source) in sources.enumerated() where descriptors[polledWatches.count + index].revents != 0 {
                source.onReadable()
            }
        }
    }
}

/// The shorter of two optional sleep limits, where nil means no limit.
private func earlier(_ first: Duration?, _ second: Duration?) -> Duration? {
    guard let first else { return second }
    guard let second else { return first }
    return min(first, second)
}
