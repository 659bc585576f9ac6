public import DBusKit
import NetworkActivityInterface

/// A Swift program's connection to the network-activity service, `org.example.NetworkActivity`.
///
/// Activities begun through a client belong to its bus connection: the service ends whatever is left when the
/// client is released or the program exits. The client may be used from any thread or task at once; every
/// call is one blocking round trip to the service that gives up after `timeout`, so a dead or missing
/// service yields a thrown `DBusError`, never a hang.
public final class NetworkActivityClient: Sendable {
    /// Which bus to use: `.session` (the default), `.system`, or `.address("unix:path=…")`.
    public typealias Bus = Connection.Bus

    /// How long each call waits for the service's answer before it throws `NoReply`.
    public let timeout: Duration
    private let connection: BlockingConnection

    /// Connects to `bus`; throws when the bus cannot be reached. The service itself is not contacted until
    /// the first call, which starts it if the bus can activate it.
    public init(bus: Bus = .session, timeout: Duration = .seconds(5)) throws(DBusError) {
        connection = try BlockingConnection(bus: bus)
        self.timeout = timeout
    }

    /// Begins an activity that lasts until the returned token is ended or released, or this client's
    /// connection closes, whichever comes first (`Begin`).
    ///
    /// - Parameter label: what the activity is, for people: at most 256 bytes, no control characters.
    /// - Throws: `LimitExceeded` past the service's limits, `InvalidArgs` for a bad label, or the bus's error
    ///   when the service cannot be reached.
    public func begin(label: String) throws(DBusError) -> Activity {
        Activity(id: try beginActivity(label: label, seconds: nil), label: label, client: self)
    }

    /// Begins an activity that ends after `seconds` (1 to 86400) at the latest, even if this program hangs
    /// or exits; ending or releasing the token ends it earlier (`BeginWithTimeout`). `Activity.detach()`
    /// hands it over to its deadline.
    public func beginTimed(label: String, seconds: UInt32) throws(DBusError) -> Activity {
        Activity(id: try beginActivity(label: label, seconds: seconds), label: label, client: self)
    }

    /// Ends the activity `id` (`End`): one of this client's, or a timed one that any program of the same Unix
    /// user began.
    ///
    /// - Throws: `UnknownActivity` when no such activity is active, `NotOwner` when it is someone else's.
    public func end(id: UInt32) throws(DBusError) {
        _ = try call("End") { $0.append(id) }
    }

    /// Ends every activity this client began, timed ones included (`Cancel`); returns how many ended.
    /// Tokens of activities ended this way do nothing more when released.
    @discardableResult
    public func cancelAll() throws(DBusError) -> UInt32 {
        var reply = try call("Cancel")
        return try reply.read(UInt32.self)
    }

    /// Ends every activity of every program (`Reset`), a recovery tool; returns how many ended. On the system
    /// bus only root may call it.
    @discardableResult
    public func reset() throws(DBusError) -> UInt32 {
        var reply = try call("Reset")
        return try reply.read(UInt32.self)
    }

    /// The service's state now: whether the indicator shows, how many activities are active, and each of them
    /// with its owner's process where the bus tells it.
    public func status() throws(DBusError) -> ServiceStatus {
        let properties = try connection.readServiceProperties(timeout: timeout)
        var reply = try call("ListActivities")
        var owners = OwnerLookup(connection: connection)
        return ServiceStatus(
            isVisible: properties.isVisible, activeCount: properties.activeCount,
            activities: owners.describe(try reply.read([ActivityRecord].self)),
            takenAt: SystemTime.wallClockMicroseconds())
    }

    /// The ids of the timed activities that are active, which are the ones `end(id:)` may end from a program
    /// other than the one that began them (an activity from `Begin` ends only from its own connection). A
    /// service that is not running is not started for this: the bus throws `ServiceUnknown` instead. For shell
    /// completion, which must answer quickly and change nothing.
    public func timedActivityIDs() throws(DBusError) -> [UInt32] {
        var reply = try connection.callService("ListActivities", timeout: timeout, autoStart: false)
        return try reply.read([ActivityRecord].self).filter { $0.deadline != nil }.map(\.id)
    }

    // MARK: Used by tokens and scopes

    /// `Begin`, or `BeginWithTimeout` when there are `seconds`; returns the new activity's id.
    func beginActivity(label: String, seconds: UInt32?) throws(DBusError) -> UInt32 {
        // A D-Bus string ends at its first NUL, so the service would be sent a shorter label than the one given;
        // it refuses every other control character itself.
        guard !label.utf8.contains(0) else {
            throw DBusError(.invalidArgs, "the label contains the control character U+0")
        }
        var reply = try call(seconds == nil ? "Begin" : "BeginWithTimeout") { arguments in
            arguments.append(label)
            if let seconds { arguments.append(seconds) }
        }
        return try reply.read(UInt32.self)
    }

    /// Sends `End` without waiting for an answer, for a token that is released: nothing can be done with an
    /// error there, and the message still reaches the service before any later call of this client.
    func endWithoutReply(id: UInt32) {
        connection.sendWithoutReply(.serviceCall("End") { $0.append(id) })
    }

    private func call(
        _ member: MemberName, _ arguments: (inout MessageWriter) -> Void = { _ in }
    ) throws(DBusError) -> MessageReader {
        try connection.callService(member, timeout: timeout, arguments: arguments)
    }
}

/// What every call of this library throws: a D-Bus error name and message. The service's own names are
/// `ErrorName.unknownActivity`, `.notOwner` and `.limitExceeded`; a service that is not running and cannot be
/// started gives `.serviceUnknown`, one that does not answer in time `.noReply`.
public typealias NetworkActivityError = DBusError
