// SPDX-License-Identifier: Apache-2.0
internal import CDBus

/// A Swift type with a fixed D-Bus type signature.
public protocol DBusTyped {
    /// The value's D-Bus type signature, such as `u`, `as` or `(usstt)`.
    static var dbusSignature: String { get }
}

/// A Swift type that can be written as a D-Bus value.
public protocol DBusEncodable: DBusTyped {
    func encode(to writer: inout MessageWriter)
}

/// A Swift type that can be read from a D-Bus value.
public protocol DBusDecodable: DBusTyped {
    /// Reads the value at the reader's position; throws `InvalidArgs` when the value there has another type.
    init(from reader: inout MessageReader) throws(DBusError)
}

public typealias DBusCodable = DBusEncodable & DBusDecodable

extension Bool: DBusCodable {
    public static var dbusSignature: String { "b" }
    public func encode(to writer: inout MessageWriter) {
        writer.appendBasic(CDBUS_TYPE_BOOLEAN, dbus_bool_t(self ? 1 : 0))
    }
    public init(from reader: inout MessageReader) throws(DBusError) {
        self = try reader.readBasic(CDBUS_TYPE_BOOLEAN, "b", zero: dbus_bool_t(0)) != 0
    }
}

/// A fixed-size basic type that libdbus copies in and out as it is (`dbus_message_iter_append_basic`,
/// `dbus_message_iter_get_basic`): its D-Bus type code is all it adds, and its signature is that code's letter.
public protocol DBusFixedSizeValue: DBusCodable {
    /// The libdbus type code, such as `DBUS_TYPE_UINT32` (`u`).
    static var dbusTypeCode: Int32 { get }
    /// The value a read starts from.
    static var zero: Self { get }
}

extension DBusFixedSizeValue {
    public static var dbusSignature: String { String(UnicodeScalar(UInt8(dbusTypeCode))) }
    public func encode(to writer: inout MessageWriter) { writer.appendBasic(Self.dbusTypeCode, self) }
    public init(from reader: inout MessageReader) throws(DBusError) {
        self = try reader.readBasic(Self.dbusTypeCode, Self.dbusSignature, zero: Self.zero)
    }
}

extension UInt8: DBusFixedSizeValue { public static var dbusTypeCode: Int32 { CDBUS_TYPE_BYTE } }
extension Int32: DBusFixedSizeValue { public static var dbusTypeCode: Int32 { CDBUS_TYPE_INT32 } }
extension UInt32: DBusFixedSizeValue { public static var dbusTypeCode: Int32 { CDBUS_TYPE_UINT32 } }
extension Int64: DBusFixedSizeValue { public static var dbusTypeCode: Int32 { CDBUS_TYPE_INT64 } }
extension UInt64: DBusFixedSizeValue { public static var dbusTypeCode: Int32 { CDBUS_TYPE_UINT64 } }
extension Double: DBusFixedSizeValue { public static var dbusTypeCode: Int32 { CDBUS_TYPE_DOUBLE } }

extension String: DBusCodable {
    public static var dbusSignature: String { "s" }
    public func encode(to writer: inout MessageWriter) { writer.appendString(CDBUS_TYPE_STRING, self) }
    public init(from reader: inout MessageReader) throws(DBusError) {
        self = try reader.readString(CDBUS_TYPE_STRING, "s")
    }
}

extension DBusName: DBusTyped, DBusCodable where Kind == ObjectPathKind {
    public static var dbusSignature: String { "o" }
    public func encode(to writer: inout MessageWriter) { writer.appendString(CDBUS_TYPE_OBJECT_PATH, rawValue) }
    public init(from reader: inout MessageReader) throws(DBusError) {
        // The bus has validated every object path in a message it delivered.
        self.init(trusted: try reader.readString(CDBUS_TYPE_OBJECT_PATH, "o"))
    }
}

extension Array: DBusTyped where Element: DBusTyped {
    public static var dbusSignature: String { "a" + Element.dbusSignature }
}

extension Array: DBusEncodable where Element: DBusEncodable {
    public func encode(to writer: inout MessageWriter) {
        writer.appendArray(elementSignature: Element.dbusSignature) { elements in
            for element in self { elements.append(element) }
        }
    }
}

extension Array: DBusDecodable where Element: DBusDecodable {
    public init(from reader: inout MessageReader) throws(DBusError) {
        self = try reader.readArray(Self.dbusSignature) { (element: inout MessageReader) throws(DBusError) in
            try element.read(Element.self)
        }
    }
}

extension Dictionary: DBusTyped where Key: DBusTyped, Value: DBusTyped {
    public static var dbusSignature: String { "a{" + Key.dbusSignature + Value.dbusSignature + "}" }
}

extension Dictionary: DBusEncodable where Key: DBusEncodable, Value: DBusEncodable {
    public func encode(to writer: inout MessageWriter) {
        writer.appendArray(elementSignature: "{" + Key.dbusSignature + Value.dbusSignature + "}") { entries in
            for (key, value) in self {
                entries.appendDictEntry { entry in
                    entry.append(key)
                    entry.append(value)
                }
            }
        }
    }
}

extension Dictionary: DBusDecodable where Key: DBusDecodable, Value: DBusDecodable {
    public init(from reader: inout MessageReader) throws(DBusError) {
        let signature = Self.dbusSignature
        let pairs = try reader.readArray(signature) { (entry: inout MessageReader) throws(DBusError) in
            try entry.readStruct(signature) { (fields: inout MessageReader) throws(DBusError) in
                (try fields.read(Key.self), try fields.read(Value.self))
            }
        }
        self = Dictionary(pairs, uniquingKeysWith: { _, last in last })
    }
}
