// SPDX-License-Identifier: Apache-2.0
/// A value to send inside a D-Bus variant (`v`), such as a property value.
public struct Variant: DBusEncodable {
    public static var dbusSignature: String { "v" }

    private let signature: String
    private let write: (inout MessageWriter) -> Void

    public init<Value: DBusEncodable>(_ value: Value) {
        signature = Value.dbusSignature
        write = { $0.append(value) }
    }

    public func encode(to writer: inout MessageWriter) {
        writer.appendVariant(signature: signature) { write(&$0) }
    }
}

/// A variant read from a message: its signature, and the value, decoded when the reader asks for a type.
public struct ReceivedVariant: DBusDecodable {
    public static var dbusSignature: String { "v" }

    /// The signature of the value inside.
    public let signature: String
    private let value: MessageReader

    public init(from reader: inout MessageReader) throws(DBusError) {
        (signature, value) = try reader.readVariant { (inner: inout MessageReader) throws(DBusError) in
            (inner.currentSignature, inner)
        }
    }

    /// The value inside, as `Value`; throws `InvalidArgs` when the variant holds another type.
    public func decode<Value: DBusDecodable>(_ type: Value.Type = Value.self) throws(DBusError) -> Value {
        var reader = value
        return try reader.read(Value.self)
    }
}
