// SPDX-License-Identifier: Apache-2.0
public import DBusKit

/// One call of the service, defined once: its message, addressed to the service's object, and how its reply is
/// read. The async client and the blocking calls both run these, each with its own way of waiting.
public struct ServiceCall<Reply> {
    public let message: Message
    public let readReply: (inout MessageReader) throws(DBusError) -> Reply

    public init(_ message: Message, readReply: @escaping (inout MessageReader) throws(DBusError) -> Reply) {
        self.message = message
        self.readReply = readReply
    }

    /// The same call, with its reply turned into another value.
    public func map<Other>(_ transform: @escaping (Reply) throws(DBusError) -> Other) -> ServiceCall<Other> {
        let read = readReply
        return ServiceCall<Other>(message) { reply throws(DBusError) in try transform(try read(&reply)) }
    }

    /// The same call, which a bus that could start the service does not start it for: it answers
    /// `ServiceUnknown` when the service is not running.
    public func withoutAutoStart() -> ServiceCall {
        message.autoStart = false
        return self
    }
}

extension Method where Output: DBusDecodable {
    /// A call of this method of the service, to the object of its interface, carrying `arguments`.
    public func serviceCall(_ arguments: repeat each Input) -> ServiceCall<Output>
    where repeat each Input: DBusEncodable {
        ServiceCall(call(repeat each arguments, destination: ServiceNames.busName,
                         path: ServiceNames.objectPath(serving: interface)),
                    readReply: readReply)
    }
}

extension ServiceCall where Reply == ServiceProperties {
    /// `Visible` and `ActiveCount`, in one `GetAll`.
    public static var properties: ServiceCall {
        StandardInterface.getAll.serviceCall(ServiceNames.interface.rawValue).map(ServiceProperties.init(values:))
    }
}

extension Connection {
    /// Makes `call` and blocks until its reply, read as the call says; an error reply is thrown as it is.
    public func call<Reply>(_ call: ServiceCall<Reply>, timeout: Duration) throws(DBusError) -> Reply {
        var reply = try self.call(call.message, timeout: timeout).arguments()
        return try call.readReply(&reply)
    }

    /// Sends `call` from the loop's thread and returns at once; `onReply` gets the reply, read as the call says,
    /// or the error (`NoReply` once `timeout` has passed), on the loop's thread.
    public func send<Reply>(
        _ call: ServiceCall<Reply>, timeout: Duration = .seconds(25),
        onReply: @escaping (Result<Reply, DBusError>) -> Void
    ) {
        let read = call.readReply
        send(call.message, timeout: timeout) { result in
            onReply(result.flatMap { reply in
                var reply = reply
                do throws(DBusError) { return .success(try read(&reply)) } catch { return .failure(error) }
            })
        }
    }
}
