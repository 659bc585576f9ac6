// SPDX-License-Identifier: Apache-2.0
internal import CDBus

/// How `RequestName` answered.
public enum NameRequestResult: Sendable, Equatable {
    /// This connection owns the name now.
    case primaryOwner
    /// It already did.
    case alreadyOwner
    /// Someone else owns it and did not give it up.
    case exists
    /// Someone else owns it; this connection waits in the queue.
    case inQueue
}

/// Options for `RequestName`.
public struct NameRequestFlags: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Another connection that asks with `replaceExisting` may take the name over.
    public static let allowReplacement = NameRequestFlags(rawValue: CDBUS_NAME_FLAG_ALLOW_REPLACEMENT)
    /// Take the name from its owner if that owner allows replacement.
    public static let replaceExisting = NameRequestFlags(rawValue: CDBUS_NAME_FLAG_REPLACE_EXISTING)
    /// Fail instead of waiting in the queue.
    public static let doNotQueue = NameRequestFlags(rawValue: CDBUS_NAME_FLAG_DO_NOT_QUEUE)
}

/// Calls to the bus itself, `org.freedesktop.DBus`.
extension Connection {
    public static let busDriverName: BusName = "org.freedesktop.DBus"
    public static let busDriverPath: ObjectPath = "/org/freedesktop/DBus"
    public static let busDriverInterface: InterfaceName = "org.freedesktop.DBus"
    /// `StartServiceByName`: D-Bus activation of a name, which a caller need not wait for.
    public static let startServiceByName = Method("StartServiceByName", of: busDriverInterface,
                                                  Argument<String>("name"), Argument<UInt32>("flags"),
                                                  output: Argument<UInt32>("result"))

    /// Asks for a well-known name (`dbus_bus_request_name`).
    public func requestName(_ name: BusName, flags: NameRequestFlags) throws(DBusError) -> NameRequestResult {
        assertOnLoopThread()
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        noteBlockingCall()
        let result = dbus_bus_request_name(raw, name.rawValue, flags.rawValue, &error)
        if result < 0 { throw DBusError(consuming: &error) }
        switch result {
        case CDBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER: return .primaryOwner
        case CDBUS_REQUEST_NAME_REPLY_ALREADY_OWNER: return .alreadyOwner
        case CDBUS_REQUEST_NAME_REPLY_IN_QUEUE: return .inQueue
        default: return .exists
        }
    }

    /// Calls `onChange` with the new owner's unique name, or "" when nobody owns it any more, whenever `name`
    /// changes hands (`NameOwnerChanged`): how a client follows a service or a panel across restarts.
    public func followOwner(of name: BusName, onChange: @escaping (_ newOwner: String) -> Void) throws(DBusError) {
        try subscribe(to: MatchRule(sender: Self.busDriverName, interface: Self.busDriverInterface,
                                    member: "NameOwnerChanged", arguments: [0: name.rawValue])) { signal in
            var arguments = signal.arguments()
            arguments.skip()
            arguments.skip()
            onChange((try? arguments.read(String.self)) ?? "")
        }
    }

    /// Calls `onLoss` when this connection loses `name` (`NameLost`), to a connection that asked to replace it. The
    /// bus addresses that signal to the owner alone, which receives it without a match rule: asking for none spares
    /// a round trip to the bus before the name is requested.
    public func onLoss(of name: BusName, _ onLoss: @escaping () -> Void) {
        assertOnLoopThread()
        router.subscribe(MatchRule(sender: Self.busDriverName, interface: Self.busDriverInterface,
                                   member: "NameLost", arguments: [0: name.rawValue])) { _ in onLoss() }
    }

    /// Gives a well-known name up (`dbus_bus_release_name`).
    public func releaseName(_ name: BusName) throws(DBusError) {
        assertOnLoopThread()
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        noteBlockingCall()
        if dbus_bus_release_name(raw, name.rawValue, &error) < 0 { throw DBusError(consuming: &error) }
    }
}

/// The bus driver's questions about a connection, which a blocking call answers.
extension Connection {
    /// The Unix user id of the process behind `name` (`GetConnectionUnixUser`).
    public func unixUser(of name: BusName) throws(DBusError) -> UInt32 {
        var reader = try callBusDriver("GetConnectionUnixUser", name)
        return try reader.read(UInt32.self)
    }

    /// The process id behind `name` (`GetConnectionUnixProcessID`).
    public func processID(of name: BusName) throws(DBusError) -> UInt32 {
        var reader = try callBusDriver("GetConnectionUnixProcessID", name)
        return try reader.read(UInt32.self)
    }

    /// The Unix user and process behind `name`, in one call (`GetConnectionCredentials`).
    public func credentials(of name: BusName) throws(DBusError) -> ConnectionCredentials {
        var reader = try callBusDriver("GetConnectionCredentials", name)
        let values = try reader.read([String: ReceivedVariant].self)
        guard let user = try values["UnixUserID"]?.decode(UInt32.self) else {
            throw DBusError(.failed, "the bus did not tell the Unix user of \(name)")
        }
        return ConnectionCredentials(user: user, processID: try values["ProcessID"]?.decode(UInt32.self))
    }

    /// The unique name that owns `name` now (`GetNameOwner`); throws `NameHasNoOwner` when nobody does.
    public func nameOwner(of name: BusName) throws(DBusError) -> String {
        var reader = try callBusDriver("GetNameOwner", name)
        return try reader.read(String.self)
    }

    /// Every name on the bus now, unique and well-known (`ListNames`).
    public func names() throws(DBusError) -> [String] {
        var reader = try callBusDriver("ListNames")
        return try reader.read([String].self)
    }

    /// The bus's id (`GetId`), which is different for every instance of a bus: a bus started again, at the next
    /// login or boot, has another, and gives its unique names (`:1.5`) to other programs.
    public func busID() throws(DBusError) -> String {
        var reader = try callBusDriver("GetId")
        return try reader.read(String.self)
    }

    private func callBusDriver(_ member: MemberName, _ name: BusName? = nil) throws(DBusError) -> MessageReader {
        try call(
            destination: Connection.busDriverName, path: Connection.busDriverPath, interface: Connection.busDriverInterface,
            member: member, timeout: .seconds(5)
        ) { writer in
            if let name { writer.append(name.rawValue) }
        }
    }
}

/// Who is behind a connection, as the bus tells it.
public struct ConnectionCredentials: Sendable, Equatable {
    /// The Unix user id.
    public var user: UInt32
    /// The process id; nil when the bus does not know it (a connection over TCP).
    public var processID: UInt32?

    public init(user: UInt32, processID: UInt32?) {
        self.user = user
        self.processID = processID
    }
}
