internal import DBusKit

/// `Begin`, `BeginWithTimeout` and `End` as calls that block the calling thread, on a `Connection` with no loop,
/// for a process that makes one or two calls and exits: the command's `begin`, `end` and `run`. They fail as
/// `NetworkActivityClient`'s calls do, with the same errors, but start no loop thread and wake no executor, which
/// for a program that lives 3 ms would cost it the guard on its start (docs/performance.md). Activities begun here
/// belong to this connection's name, and end with it, timed ones excepted.
package final class BlockingActivityCalls {
    private let connection: Connection
    private let timeout: Duration

    package init(bus: NetworkActivityClient.Bus, timeout: Duration = .seconds(5)) throws(NetworkActivityError) {
        do throws(DBusError) {
            connection = try Connection(bus: bus.connectionBus)
        } catch {
            throw NetworkActivityError(error)
        }
        self.timeout = timeout
    }

    /// Begins an activity, with a deadline when `seconds` is given.
    package func begin(_ label: String, seconds: UInt32?) throws(NetworkActivityError) -> ActivityID {
        try call(try Message.beginCall(label, seconds: seconds)) { reply throws(DBusError) in
            ActivityID(rawValue: try reply.read(UInt32.self))
        }
    }

    package func end(_ id: ActivityID) throws(NetworkActivityError) {
        try call(.serviceCall("End") { $0.append(id.rawValue) }) { _ throws(DBusError) in }
    }

    private func call<Value>(
        _ message: Message, decode: (inout MessageReader) throws(DBusError) -> Value
    ) throws(NetworkActivityError) -> Value {
        do throws(DBusError) {
            var reply = try connection.call(message, timeout: timeout).arguments()
            return try decode(&reply)
        } catch {
            throw NetworkActivityError(error)
        }
    }
}
