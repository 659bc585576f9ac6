// The bench's minimal C service, function for function, in Swift: one libdbus filter, libdbus's own loop
// (`dbus_connection_read_write_dispatch`), and two Swift dictionaries where the C has hand-made hash tables.
// What it leaves out, as the C does: limits, quotas, labels' checks, delays, expiry, the system bus, properties.
import CLibdbus

#if canImport(Glibc)
import Glibc
#endif

let busName = "org.example.NetworkActivity"
let objectPath = "/org/example/NetworkActivity"
let interfaceName = "org.example.NetworkActivity"

final class Client {
    let name: String
    var ids: Set<UInt32> = []

    init(name: String) { self.name = name }
}

struct Activity {
    let client: Client
    let label: String
}

// One thread uses these, as in the C.
nonisolated(unsafe) var connection: OpaquePointer! = nil
nonisolated(unsafe) var activities: [UInt32: Activity] = [:]
nonisolated(unsafe) var clients: [String: Client] = [:]
nonisolated(unsafe) var nextID: UInt32 = 1

func append(_ text: String, to iterator: inout DBusMessageIter) {
    text.withCString { pointer in
        var field: UnsafePointer<CChar>? = pointer
        _ = dbus_message_iter_append_basic(&iterator, PORT_TYPE_STRING, &field)
    }
}

/// `PropertiesChanged(interface, {Visible: b, ActiveCount: u}, [])`, as the C sends with each visibility change.
func emitProperties(_ visible: Bool) {
    let signal = dbus_message_new_signal(objectPath, "org.freedesktop.DBus.Properties", "PropertiesChanged")!
    var arguments = DBusMessageIter(), dictionary = DBusMessageIter(), entry = DBusMessageIter()
    var variant = DBusMessageIter(), invalidated = DBusMessageIter()
    var flag: dbus_bool_t = visible ? 1 : 0
    var count = UInt32(activities.count)
    dbus_message_iter_init_append(signal, &arguments)
    append(interfaceName, to: &arguments)
    dbus_message_iter_open_container(&arguments, PORT_TYPE_ARRAY, "{sv}", &dictionary)
    dbus_message_iter_open_container(&dictionary, PORT_TYPE_DICT_ENTRY, nil, &entry)
    append("Visible", to: &entry)
    dbus_message_iter_open_container(&entry, PORT_TYPE_VARIANT, "b", &variant)
    dbus_message_iter_append_basic(&variant, PORT_TYPE_BOOLEAN, &flag)
    dbus_message_iter_close_container(&entry, &variant)
    dbus_message_iter_close_container(&dictionary, &entry)
    dbus_message_iter_open_container(&dictionary, PORT_TYPE_DICT_ENTRY, nil, &entry)
    append("ActiveCount", to: &entry)
    dbus_message_iter_open_container(&entry, PORT_TYPE_VARIANT, "u", &variant)
    dbus_message_iter_append_basic(&variant, PORT_TYPE_UINT32, &count)
    dbus_message_iter_close_container(&entry, &variant)
    dbus_message_iter_close_container(&dictionary, &entry)
    dbus_message_iter_close_container(&arguments, &dictionary)
    dbus_message_iter_open_container(&arguments, PORT_TYPE_ARRAY, "s", &invalidated)
    dbus_message_iter_close_container(&arguments, &invalidated)
    dbus_message_set_no_reply(signal, 1)
    dbus_connection_send(connection, signal, nil)
    dbus_message_unref(signal)
}

func emitVisibility(_ visible: Bool) {
    let signal = dbus_message_new_signal(objectPath, interfaceName, "VisibilityChanged")!
    var arguments = DBusMessageIter()
    var flag: dbus_bool_t = visible ? 1 : 0
    dbus_message_iter_init_append(signal, &arguments)
    dbus_message_iter_append_basic(&arguments, PORT_TYPE_BOOLEAN, &flag)
    dbus_message_set_no_reply(signal, 1)
    dbus_connection_send(connection, signal, nil)
    dbus_message_unref(signal)
    emitProperties(visible)
}

func reply(to call: OpaquePointer, _ value: UInt32? = nil) {
    guard dbus_message_get_no_reply(call) == 0 else { return }
    let reply = dbus_message_new_method_return(call)!
    if var value {
        var arguments = DBusMessageIter()
        dbus_message_iter_init_append(reply, &arguments)
        dbus_message_iter_append_basic(&arguments, PORT_TYPE_UINT32, &value)
    }
    dbus_connection_send(connection, reply, nil)
    dbus_message_unref(reply)
}

func replyError(to call: OpaquePointer, _ name: String, _ text: String) {
    guard dbus_message_get_no_reply(call) == 0 else { return }
    let reply = dbus_message_new_error(call, name, text)!
    dbus_connection_send(connection, reply, nil)
    dbus_message_unref(reply)
}

/// Ends all of `client`'s activities and forgets it; returns how many there were.
func dropAll(_ client: Client) -> UInt32 {
    for id in client.ids { activities[id] = nil }
    clients[client.name] = nil
    return UInt32(client.ids.count)
}

func begin(_ call: OpaquePointer) {
    var arguments = DBusMessageIter()
    guard dbus_message_iter_init(call, &arguments) != 0,
        dbus_message_iter_get_arg_type(&arguments) == PORT_TYPE_STRING,
        dbus_message_iter_has_next(&arguments) == 0
    else { return replyError(to: call, "org.freedesktop.DBus.Error.InvalidArgs", "Begin expects (s)") }
    var label: UnsafePointer<CChar>? = nil
    dbus_message_iter_get_basic(&arguments, &label)
    guard let senderField = dbus_message_get_sender(call) else {
        return replyError(to: call, "org.freedesktop.DBus.Error.Failed", "no sender")
    }
    var id: UInt32
    repeat {  // skips 0, and live ids once the counter wraps
        id = nextID
        nextID &+= 1
        if nextID == 0 { nextID = 1 }
    } while id == 0 || activities[id] != nil
    let sender = String(cString: senderField)
    let client: Client
    if let known = clients[sender] {
        client = known
    } else {
        client = Client(name: sender)
        clients[sender] = client
    }
    client.ids.insert(id)
    activities[id] = Activity(client: client, label: String(cString: label!))
    if activities.count == 1 { emitVisibility(true) }
    reply(to: call, id)
}

func end(_ call: OpaquePointer) {
    var arguments = DBusMessageIter()
    guard dbus_message_iter_init(call, &arguments) != 0,
        dbus_message_iter_get_arg_type(&arguments) == PORT_TYPE_UINT32,
        dbus_message_iter_has_next(&arguments) == 0
    else { return replyError(to: call, "org.freedesktop.DBus.Error.InvalidArgs", "End expects (u)") }
    var id: UInt32 = 0
    dbus_message_iter_get_basic(&arguments, &id)
    guard let sender = dbus_message_get_sender(call), let activity = activities[id],
        activity.client.name.withCString({ strcmp($0, sender) }) == 0
    else {
        return replyError(to: call, "org.example.NetworkActivity.Error.UnknownId", "No activity \(id) for this caller")
    }
    activities[id] = nil
    activity.client.ids.remove(id)
    if activity.client.ids.isEmpty { clients[activity.client.name] = nil }
    if activities.isEmpty { emitVisibility(false) }
    reply(to: call)
}

func cancel(_ call: OpaquePointer) {
    var arguments = DBusMessageIter()
    guard dbus_message_iter_init(call, &arguments) == 0 else {
        return replyError(to: call, "org.freedesktop.DBus.Error.InvalidArgs", "Cancel expects ()")
    }
    var ended: UInt32 = 0
    if let sender = dbus_message_get_sender(call), let client = clients[String(cString: sender)] {
        ended = dropAll(client)
        if ended > 0 && activities.isEmpty { emitVisibility(false) }
    }
    reply(to: call, ended)
}

/// `NameOwnerChanged(name, old, "")` for a unique name: its caller left the bus.
func nameOwnerChanged(_ signal: OpaquePointer) {
    var arguments = DBusMessageIter()
    var name: UnsafePointer<CChar>? = nil, newOwner: UnsafePointer<CChar>? = nil
    guard dbus_message_iter_init(signal, &arguments) != 0,
        dbus_message_iter_get_arg_type(&arguments) == PORT_TYPE_STRING
    else { return }
    dbus_message_iter_get_basic(&arguments, &name)
    guard dbus_message_iter_next(&arguments) != 0, dbus_message_iter_next(&arguments) != 0 else { return }
    dbus_message_iter_get_basic(&arguments, &newOwner)
    guard let name, let newOwner, name[0] == CChar(bitPattern: UInt8(ascii: ":")), newOwner[0] == 0,
        let client = clients[String(cString: name)]
    else { return }
    if dropAll(client) > 0 && activities.isEmpty { emitVisibility(false) }
}

func filter(_: OpaquePointer?, _ message: OpaquePointer?, _: UnsafeMutableRawPointer?) -> DBusHandlerResult {
    guard let message else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    let type = dbus_message_get_type(message)
    if type == PORT_MESSAGE_TYPE_METHOD_CALL {
        guard let path = dbus_message_get_path(message), strcmp(path, objectPath) == 0,
            let member = dbus_message_get_member(message)
        else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        if dbus_message_get_interface(message).map({ strcmp($0, interfaceName) == 0 }) ?? true {
            if strcmp(member, "Begin") == 0 { begin(message); return DBUS_HANDLER_RESULT_HANDLED }
            if strcmp(member, "End") == 0 { end(message); return DBUS_HANDLER_RESULT_HANDLED }
            if strcmp(member, "Cancel") == 0 { cancel(message); return DBUS_HANDLER_RESULT_HANDLED }
        }
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED  // libdbus answers Peer and UnknownMethod
    }
    if type == PORT_MESSAGE_TYPE_SIGNAL,
        dbus_message_is_signal(message, "org.freedesktop.DBus", "NameOwnerChanged") != 0
    {
        if let sender = dbus_message_get_sender(message), strcmp(sender, "org.freedesktop.DBus") == 0 {
            nameOwnerChanged(message)
        }
        return DBUS_HANDLER_RESULT_HANDLED
    }
    return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}

var error = DBusError()
dbus_error_init(&error)
guard let bus = dbus_bus_get_private(DBUS_BUS_SESSION, &error) else { fatalError("swift-port: cannot connect") }
connection = bus
dbus_connection_set_exit_on_disconnect(bus, 1)
// Subscribed before owning the name, so that no departure is missed.
dbus_bus_add_match(
    bus,
    "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
        + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg2=''",
    &error)
guard dbus_error_is_set(&error) == 0 else { fatalError("swift-port: AddMatch failed") }
_ = dbus_connection_add_filter(bus, filter, nil, nil)
guard dbus_bus_request_name(bus, busName, PORT_NAME_FLAG_DO_NOT_QUEUE, &error)
    == PORT_REQUEST_NAME_REPLY_PRIMARY_OWNER
else { fatalError("swift-port: cannot own \(busName)") }
while dbus_connection_read_write_dispatch(bus, -1) != 0 {}
