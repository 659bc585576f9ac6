// SPDX-License-Identifier: Apache-2.0
internal import CDBus

/// Reads a message's arguments in order through a `DBusMessageIter` (`dbus_message_iter_get_basic`,
/// `dbus_message_iter_recurse`), checking each value's type before it is read and copying strings out at once.
public struct MessageReader {
    /// Keeps the message, whose memory the iterator points into, alive.
    private let message: Message
    private var iter = DBusMessageIter()
    private var isEmpty: Bool

    init(message: Message) {
        self.message = message
        isEmpty = dbus_message_iter_init(message.raw, &iter) == 0
    }

    private init(container iter: DBusMessageIter, of message: Message) {
        self.message = message
        self.iter = iter
        isEmpty = false
    }

    /// Whether every argument has been read.
    public var isAtEnd: Bool { currentType == CDBUS_TYPE_INVALID }

    private var currentType: Int32 {
        // libdbus takes the iterator by pointer even to look; a copy keeps this a read.
        var position = iter
        return isEmpty ? CDBUS_TYPE_INVALID : dbus_message_iter_get_arg_type(&position)
    }

    /// The signature of the value at the current position, "" at the end.
    public var currentSignature: String {
        var position = iter
        guard !isAtEnd, let signature = dbus_message_iter_get_signature(&position) else { return "" }
        defer { dbus_free(signature) }
        return String(cString: signature)
    }

    /// Reads a value of any decodable type.
    public mutating func read<Value: DBusDecodable>(_ type: Value.Type = Value.self) throws(DBusError) -> Value {
        try Value(from: &self)
    }

    private mutating func expect(_ typeCode: Int32, _ signature: String) throws(DBusError) {
        let found = currentType
        guard found == typeCode else { throw mismatch(found, expected: signature) }
    }

    /// Apart from `expect`, which every argument passes, so that its message takes no room there.
    @inline(never)
    private func mismatch(_ found: Int32, expected signature: String) -> DBusError {
        DBusError(
            .invalidArgs,
            found == CDBUS_TYPE_INVALID
                ? "expected a value of type \"\(signature)\", found no more arguments"
                : "expected a value of type \"\(signature)\", found \"\(currentSignature)\"")
    }

    private mutating func advance() {
        dbus_message_iter_next(&iter)
    }

    /// Moves past the current value, whatever its type.
    public mutating func skip() {
        if !isAtEnd { advance() }
    }

    /// The current value when it is a string or an object path (advancing past it), nil otherwise.
    mutating func readStringOrPath() -> String? {
        switch currentType {
        case CDBUS_TYPE_STRING: try? readString(CDBUS_TYPE_STRING, "s")
        case CDBUS_TYPE_OBJECT_PATH: try? readString(CDBUS_TYPE_OBJECT_PATH, "o")
        default: nil
        }
    }

    mutating func readBasic<Value>(_ typeCode: Int32, _ signature: String, zero: Value) throws(DBusError) -> Value {
        try expect(typeCode, signature)
        var value = zero
        withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(&iter, $0) }
        advance()
        return value
    }

    mutating func readString(_ typeCode: Int32, _ signature: String) throws(DBusError) -> String {
        let pointer: UnsafePointer<CChar>? = try readBasic(typeCode, signature, zero: nil)
        return pointer.map { String(cString: $0) } ?? ""
    }

    /// Reads an array, calling `element` once for each element with a reader positioned at it.
    public mutating func readArray<Element>(
        _ signature: String, _ element: (inout MessageReader) throws(DBusError) -> Element
    ) throws(DBusError) -> [Element] {
        try readContainer(CDBUS_TYPE_ARRAY, signature) { (inner: inout MessageReader) throws(DBusError) in
            var elements: [Element] = []
            while !inner.isAtEnd {
                elements.append(try element(&inner))
            }
            return elements
        }
    }

    /// Reads a struct (or a dict entry), whose fields `body` reads in order.
    public mutating func readStruct<Result>(
        _ signature: String, _ body: (inout MessageReader) throws(DBusError) -> Result
    ) throws(DBusError) -> Result {
        let typeCode = currentType == CDBUS_TYPE_DICT_ENTRY ? CDBUS_TYPE_DICT_ENTRY : CDBUS_TYPE_STRUCT
        return try readContainer(typeCode, signature, body)
    }

    /// Reads a variant: `body` gets a reader positioned at the value it holds.
    public mutating func readVariant<Result>(
        _ body: (inout MessageReader) throws(DBusError) -> Result
    ) throws(DBusError) -> Result {
        try readContainer(CDBUS_TYPE_VARIANT, "v", body)
    }

    private mutating func readContainer<Result>(
        _ typeCode: Int32, _ signature: String, _ body: (inout MessageReader) throws(DBusError) -> Result
    ) throws(DBusError) -> Result {
        try expect(typeCode, signature)
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        var inner = MessageReader(container: sub, of: message)
        let result = try body(&inner)
        advance()
        return result
    }
}
