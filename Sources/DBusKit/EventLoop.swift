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
    private var sources: [(fd: Int32, onReadable: () -> Void)] = []
    private var isRunning = false
    private var disconnected = false

    /// Called once per turn after every queued message has been dispatched: the place to fire due timers and
    /// to send what was coalesced. Returns how long the loop may sleep at most; nil to wait for I/O only.
    public var endOfTurn: () -> Duration? = { nil }

    public init(connection: Connection) {
        self.connection = connection
        connection.router.disconnectHandler = { [unowned self] in disconnected = true }
    }

    /// Calls `onReadable` on the loop's thread whenever `fileDescriptor` can be read.
    public func watch(fileDescriptor: Int32, onReadable: @escaping () -> Void) {
        sources.append((fileDescriptor, onReadable))
    }

    /// Makes `run()` return at the end of the current turn.
    public func stop() {
        isRunning = false
    }

    /// Runs until `stop()`; throws `Disconnected` when the bus connection is lost.
    public func run() throws(DBusError) {
        isRunning = true
        var descriptors = [pollfd(fd: connection.fileDescriptor, events: 0, revents: 0)]
            + sources.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        while true {
            // Blocking calls made by handlers may have queued messages; they are dispatched before any sleep.
            connection.dispatchAll()
            let sleepLimit = endOfTurn()
            guard isRunning else { return }
            guard !disconnected, connection.isConnected else {
                throw DBusError(.disconnected, "the connection to the bus was lost")
            }
            descriptors[0].events = Int16(POLLIN) | (connection.hasMessagesToSend ? Int16(POLLOUT) : 0)
            let timeout = sleepLimit.map { Int32(clamping: max(0, $0.milliseconds)) } ?? -1
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 {
                guard errno == EINTR else { throw DBusError(.failed, "poll failed: errno \(errno)") }
                continue
            }
            if descriptors[0].revents != 0 {
                connection.readWriteWithoutBlocking()
            }
            for (index, source) in sources.enumerated() where descriptors[index + 1].revents != 0 {
                source.onReadable()
            }
        }
    }
}
