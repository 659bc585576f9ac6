internal import DBusKit
internal import NetworkActivityInterface
import ProgramSupport

/// A Swift program's connection to the network-activity service, `org.example.NetworkActivity`.
///
/// Every call is `async`: it is sent from the calling task's thread and suspends the task, without holding a
/// thread, until the reply comes, the client's `timeout` passes (``NetworkActivityError/noReply(message:)``), or the
/// task is cancelled (``NetworkActivityError/cancelled``). One connection, served by one thread of the client's own,
/// carries the calls of every task that shares the client, side by side.
///
/// Activities begun through a client belong to its bus connection: the service ends whatever is left when the
/// client is released or the program exits.
public final class NetworkActivityClient: Sendable {
    /// Which bus the service is on.
    public enum Bus: Sendable, Hashable {
        /// The user's session bus, where desktop programs and the panel meet (`DBUS_SESSION_BUS_ADDRESS`).
        case session
        /// The system bus, where root's services run.
        case system
        /// The bus at a D-Bus address, such as `unix:path=/run/user/1000/bus`.
        case address(String)
    }

    /// How long each call waits for the service's answer before it throws ``NetworkActivityError/noReply(message:)``.
    public let timeout: Duration
    let connection: SharedConnection
    let busLossListeners = BusLossListeners()
    let cancelRequests = CancelRequests()

    /// Connects to `bus`; throws when the bus cannot be reached. The service itself is not contacted until the
    /// first call, which starts it if the bus can activate it.
    public init(bus: Bus = .session, timeout: Duration = .seconds(5)) throws(NetworkActivityError) {
        do throws(DBusError) {
            // Every stream of states and updates finishes.
            connection = try SharedConnection(bus: bus.connectionBus) { [busLossListeners] in busLossListeners.fireAll() }
        } catch {
            throw NetworkActivityError(error)
        }
        self.timeout = timeout
    }

    /// Connects to the bus at `address`, such as `unix:path=/tmp/bus`.
    public convenience init(address: String, timeout: Duration = .seconds(5)) throws(NetworkActivityError) {
        try self.init(bus: .address(address), timeout: timeout)
    }

    /// Begins an activity that lasts until the returned token is ended or released, or this client's connection
    /// closes, whichever comes first (`Begin`).
    ///
    /// - Parameter label: what the activity is, for people: at most 256 bytes, no control characters.
    /// - Throws: ``NetworkActivityError/limitExceeded(message:)`` past the service's limits,
    ///   ``NetworkActivityError/invalidLabel(_:)``, or what the bus says when the service cannot be reached. When the
    ///   task is cancelled while the call is on its way, ``NetworkActivityError/cancelled``, and an activity the
    ///   service began all the same is ended.
    public func begin(_ label: String) async throws(NetworkActivityError) -> Activity {
        Activity(id: try await beginActivity(label, seconds: nil), label: label, client: self)
    }

    /// Begins an activity that ends after `seconds` (1 to the service's maximum, 86400 by default) at the latest,
    /// even if this program hangs or exits (`BeginWithTimeout`); ending or releasing the token ends it earlier, and
    /// ``Activity/detach()`` hands it over to its deadline.
    public func beginTimed(_ label: String, seconds: UInt32) async throws(NetworkActivityError) -> Activity {
        Activity(id: try await beginActivity(label, seconds: seconds), label: label, client: self)
    }

    /// Ends the activity `id` (`End`): one of this client's, or a timed one that any program of the same Unix user
    /// began.
    ///
    /// - Throws: ``NetworkActivityError/unknownActivity(message:)`` when no such activity is active,
    ///   ``NetworkActivityError/notOwner(message:)`` when it is someone else's.
    public func end(_ id: ActivityID) async throws(NetworkActivityError) {
        try await call(.serviceCall("End") { $0.append(id.rawValue) }) { _ throws(DBusError) in }
    }

    /// Ends every activity this client began, timed ones included (`Cancel`); returns how many ended. Tokens of
    /// activities ended this way do nothing more when released.
    @discardableResult
    public func cancelAll() async throws(NetworkActivityError) -> Int {
        try await call(.serviceCall("Cancel")) { reply throws(DBusError) in Int(try reply.read(UInt32.self)) }
    }

    /// Ends every activity of every program (`Reset`), a recovery tool; returns how many ended. Only root and the
    /// service's own user may; others get ``NetworkActivityError/accessDenied(message:)``.
    @discardableResult
    public func reset() async throws(NetworkActivityError) -> Int {
        try await call(.serviceCall("Reset")) { reply throws(DBusError) in Int(try reply.read(UInt32.self)) }
    }

    /// The service's state now: whether the indicator shows, how many activities are active, and each of them with
    /// its owner's process where the bus tells it.
    public func status() async throws(NetworkActivityError) -> ServiceStatus {
        let properties = try await readProperties(autoStart: true)
        return ServiceStatus(
            isVisible: properties.isVisible, activeCount: properties.activeCount,
            activities: try await activities(), takenAt: SystemClock.wallClockMicroseconds())
    }

    /// The ids of the timed activities that are active, which are the ones ``end(_:)`` may end from a program other
    /// than the one that began them. A service that is not running is not started for this: the call throws
    /// ``NetworkActivityError/serviceUnavailable(name:message:)`` instead. For shell completion, which must answer
    /// quickly and change nothing.
    public func timedActivityIDs() async throws(NetworkActivityError) -> [ActivityID] {
        try await listActivities(autoStart: false).filter { $0.deadline != nil }.map { ActivityID(rawValue: $0.id) }
    }

    // MARK: Used by tokens, scopes and the states

    /// `Begin`, or `BeginWithTimeout` when there are `seconds`; returns the new activity's id.
    func beginActivity(_ label: String, seconds: UInt32?) async throws(NetworkActivityError) -> ActivityID {
        return try await call(try Message.beginCall(label, seconds: seconds), onAbandoned: { [connection] reply in
            var arguments = reply.arguments()
            guard let id = try? arguments.read(UInt32.self) else { return }
            connection.sendWithoutReply(.serviceCall("End") { $0.append(id) })
        }) { reply throws(DBusError) in ActivityID(rawValue: try reply.read(UInt32.self)) }
    }

    /// Sends `End` without waiting for an answer, for a token that is released: nothing can be done with an error
    /// there, and the message still reaches the service before any later call of this client.
    func endWithoutReply(_ id: ActivityID) {
        connection.sendWithoutReply(.serviceCall("End") { $0.append(id.rawValue) })
    }

    /// `Visible` and `ActiveCount`, in one `GetAll`. With `autoStart` off, a service that is not running is not
    /// started to answer.
    func readProperties(autoStart: Bool) async throws(NetworkActivityError) -> ServiceProperties {
        let message = Message.serviceCall("GetAll", interface: StandardInterface.properties) {
            $0.append(ServiceNames.interface.rawValue)
        }
        message.autoStart = autoStart
        return try await call(message) { reply throws(DBusError) in try ServiceProperties(reading: &reply) }
    }

    func listActivities(autoStart: Bool) async throws(NetworkActivityError) -> [ActivityRecord] {
        let message = Message.serviceCall("ListActivities")
        message.autoStart = autoStart
        return try await call(message) { reply throws(DBusError) in try reply.read([ActivityRecord].self) }
    }

    func call<Value>(
        _ message: Message, onAbandoned: (@Sendable (Message) -> Void)? = nil,
        decode: (inout MessageReader) throws(DBusError) -> Value
    ) async throws(NetworkActivityError) -> Value {
        do throws(CallFailure) {
            var reply = try await connection.call(message, timeout: timeout, onAbandoned: onAbandoned).arguments()
            do throws(DBusError) {
                return try decode(&reply)
            } catch {
                throw .bus(error)
            }
        } catch {
            throw NetworkActivityError(error)
        }
    }
}

extension Message {
    /// `BeginWithTimeout` when `seconds` is given, `Begin` otherwise.
    static func beginCall(_ label: String, seconds: UInt32?) throws(NetworkActivityError) -> Message {
        // A D-Bus string ends at its first NUL, so the service would be sent a shorter label than the one given;
        // it refuses every other control character itself.
        guard !label.utf8.contains(0) else { throw .invalidLabel("the label contains the control character U+0") }
        return .serviceCall(seconds == nil ? "Begin" : "BeginWithTimeout") { arguments in
            arguments.append(label)
            if let seconds { arguments.append(seconds) }
        }
    }
}

extension NetworkActivityClient.Bus {
    var connectionBus: Connection.Bus {
        switch self {
        case .session: .session
        case .system: .system
        case .address(let address): .address(address)
        }
    }
}
