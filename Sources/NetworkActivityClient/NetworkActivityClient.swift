// SPDX-License-Identifier: Apache-2.0
public import DBusKit
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
    /// Which bus the service is on: the user's session bus, where desktop programs and the panel meet; the
    /// system bus, where root's services run; or the bus at a D-Bus address.
    public typealias Bus = Connection.Bus

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
            connection = try SharedConnection(bus: bus) { [busLossListeners] in busLossListeners.fireAll() }
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
        _ = try await call(.end(id))
    }

    /// Ends every activity this client began, timed ones included (`Cancel`); returns how many ended. Tokens of
    /// activities ended this way do nothing more when released.
    @discardableResult
    public func cancelAll() async throws(NetworkActivityError) -> Int {
        Int(try await call(ServiceMembers.cancel.serviceCall()))
    }

    /// Ends every activity of every program (`Reset`), a recovery tool; returns how many ended. Only root and the
    /// service's own user may; others get ``NetworkActivityError/accessDenied(message:)``.
    @discardableResult
    public func reset() async throws(NetworkActivityError) -> Int {
        Int(try await call(ServiceMembers.reset.serviceCall()))
    }

    /// The service's state now: whether the indicator shows, how many activities are active, and each of them with
    /// its owner's process where the bus tells it.
    public func status() async throws(NetworkActivityError) -> ServiceStatus {
        let properties = try await readProperties(autoStart: true)
        return ServiceStatus(
            isVisible: properties.isVisible, activeCount: properties.activeCount, traffic: properties.traffic,
            trafficReason: properties.trafficReason,
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
        try await call(try .begin(label, seconds: seconds), onAbandoned: { [connection] reply in
            // Begin's and BeginWithTimeout's replies are alike: the id.
            var arguments = reply.arguments()
            guard let id = try? ServiceMembers.begin.readReply(&arguments) else { return }
            connection.sendWithoutReply(ServiceCall.end(ActivityID(rawValue: id)).message)
        })
    }

    /// Sends `End` without waiting for an answer, for a token that is released: nothing can be done with an error
    /// there, and the message still reaches the service before any later call of this client.
    func endWithoutReply(_ id: ActivityID) {
        connection.sendWithoutReply(ServiceCall.end(id).message)
    }

    /// `Visible` and `ActiveCount`, in one `GetAll`. With `autoStart` off, a service that is not running is not
    /// started to answer.
    func readProperties(autoStart: Bool) async throws(NetworkActivityError) -> ServiceProperties {
        try await call(autoStart ? .properties : ServiceCall.properties.withoutAutoStart())
    }

    func listActivities(autoStart: Bool) async throws(NetworkActivityError) -> [ActivityRecord] {
        let list = ServiceMembers.listActivities.serviceCall()
        return try await call(autoStart ? list : list.withoutAutoStart())
    }

    /// Makes `call` and suspends until its reply, read as the call says.
    func call<Value>(
        _ call: ServiceCall<Value>, onAbandoned: (@Sendable (Message) -> Void)? = nil
    ) async throws(NetworkActivityError) -> Value {
        do throws(CallFailure) {
            var reply = try await connection.call(call.message, timeout: timeout, onAbandoned: onAbandoned).arguments()
            do throws(DBusError) {
                return try call.readReply(&reply)
            } catch {
                throw .bus(error)
            }
        } catch {
            throw NetworkActivityError(error)
        }
    }
}
