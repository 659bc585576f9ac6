#if DEBUG  // A fuzz target reads internals (@testable), which a debug build alone compiles for: ReleaseBuild.swift.
internal import CDBus
@testable public import DBusKit

/// Messages in the form they travel in, as a fuzzer gives them: libdbus reads them (`dbus_message_demarshal`)
/// with the checks that a bus makes before it passes a message on, so an input that it accepts is one that a
/// served object could receive.
public enum WireMessage {
    /// The length of the message at the start of `bytes` as its header gives it; nil when `bytes` cannot start a
    /// message, or holds less than it says.
    public static func length(at bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 16 else { return nil }
        let needed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal_bytes_needed($0.baseAddress, 16) }
        }
        guard needed >= 16, needed <= bytes.count else { return nil }
        return Int(needed)
    }

    /// The message that `bytes` hold in full; nil when libdbus refuses them.
    public static func message(from bytes: ArraySlice<UInt8>) -> Message? {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let raw = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal($0.baseAddress, Int32($0.count), &error) }
        }
        return raw.map(Message.init(owning:))
    }

    /// The wire form of `message`, for a seed.
    public static func bytes(of message: Message) -> [UInt8] {
        if message.serial == 0 { message.serial = 1 }
        var buffer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(message.raw, &buffer, &length) != 0, let buffer else {
            fatalError("libdbus is out of memory")
        }
        defer { dbus_free(buffer) }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(length)))
        }
    }

    /// Gives `message` a path of its own choosing, as a seed or the fuzzer's flag asks.
    public static func setPath(_ message: Message, _ path: ObjectPath) {
        dbus_message_set_path(message.raw, path.rawValue)
    }
}
#endif
