// SPDX-License-Identifier: Apache-2.0
internal import CDBus

/// Appends arguments to a message through a `DBusMessageIter` (`dbus_message_iter_append_basic` and
/// `dbus_message_iter_open_container`); values are given as typed Swift values, never as raw pointers.
public struct MessageWriter {
    private let message: Message
    private var iter = DBusMessageIter()

    @usableFromInline init(message: Message) {
        self.message = message
        dbus_message_iter_init_append(message.raw, &iter)
    }

    private init(container iter: DBusMessageIter, of message: Message) {
        self.message = message
        self.iter = iter
    }

    /// Appends a value of any encodable type.
    public mutating func append<Value: DBusEncodable>(_ value: Value) {
        value.encode(to: &self)
    }

    mutating func appendBasic<Value>(_ typeCode: Int32, _ value: Value) {
        var value = value
        let appended = withUnsafePointer(to: &value) { dbus_message_iter_append_basic(&iter, typeCode, $0) }
        guard appended != 0 else { fatalError("libdbus is out of memory appending an argument") }
    }

    mutating func appendString(_ typeCode: Int32, _ value: String) {
        // D-Bus strings cannot hold NUL; C sees the string up to the first one.
        value.withCString { cString in appendBasic(typeCode, cString) }
    }

    /// Appends an array whose elements have `elementSignature`; `body` appends the elements.
    public mutating func appendArray(elementSignature: String, _ body: (inout MessageWriter) -> Void) {
        appendContainer(CDBUS_TYPE_ARRAY, signature: elementSignature, body)
    }

    /// Appends a struct; `body` appends its fields in order.
    public mutating func appendStruct(_ body: (inout MessageWriter) -> Void) {
        appendContainer(CDBUS_TYPE_STRUCT, signature: nil, body)
    }

    /// Appends a struct of these fields, in order.
    public mutating func appendStruct<each Field: DBusEncodable>(of fields: repeat each Field) {
        appendStruct { writer in
            repeat writer.append(each fields)
        }
    }

    /// Appends one entry of a dictionary array; `body` appends the key, then the value.
    public mutating func appendDictEntry(_ body: (inout MessageWriter) -> Void) {
        appendContainer(CDBUS_TYPE_DICT_ENTRY, signature: nil, body)
    }

    /// Appends a variant holding one value of `signature`, which `body` appends.
    public mutating func appendVariant(signature: String, _ body: (inout MessageWriter) -> Void) {
        appendContainer(CDBUS_TYPE_VARIANT, signature: signature, body)
    }

    private mutating func appendContainer(
        _ typeCode: Int32, signature: String?, _ body: (inout MessageWriter) -> Void
    ) {
        var sub = DBusMessageIter()
        let opened = signature.withOptionalCString { dbus_message_iter_open_container(&iter, typeCode, $0, &sub) }
        guard opened != 0 else { fatalError("libdbus is out of memory opening a container") }
        var inner = MessageWriter(container: sub, of: message)
        body(&inner)
        sub = inner.iter
        guard dbus_message_iter_close_container(&iter, &sub) != 0 else {
            fatalError("libdbus is out of memory closing a container")
        }
    }
}

extension Optional<String> {
    func withOptionalCString<Result>(_ body: (UnsafePointer<CChar>?) -> Result) -> Result {
        switch self {
        case .some(let string): string.withCString { body($0) }
        case .none: body(nil)
        }
    }
}
