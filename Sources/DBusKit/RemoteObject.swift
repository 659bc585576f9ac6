// SPDX-License-Identifier: Apache-2.0
/// An object that another program serves: the bus name that owns it, its path and its interface; where the
/// calls of an outside interface's declaration go.
public struct RemoteObject: Sendable, Hashable {
    public let busName: BusName
    public let path: ObjectPath
    public let interface: InterfaceName

    public init(_ busName: BusName, at path: ObjectPath, _ interface: InterfaceName) {
        self.busName = busName
        self.path = path
        self.interface = interface
    }
}

extension Method {
    /// A call of this method on `object`, carrying `arguments`.
    @inlinable
    public func call(_ arguments: repeat each Input, on object: RemoteObject) -> Message
    where repeat each Input: DBusEncodable {
        call(repeat each arguments, destination: object.busName, path: object.path)
    }
}
