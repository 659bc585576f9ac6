// SPDX-License-Identifier: Apache-2.0
internal import CDBus
#if canImport(Glibc)
import Glibc
#endif

extension Connection {
    /// Writes `message` straight to the connection's socket, waiting until the socket takes all of it, and reads
    /// nothing: the way a client that never reads its replies behaves, which the service must survive
    /// (docs/reliability.md). Not for connections that send through libdbus as well: the message takes a serial
    /// of its own, counted from 2^31, and libdbus's own queue is bypassed.
    public func writeWithoutReading(_ message: Message) throws(DBusError) {
        assertOnLoopThread()
        var socket: Int32 = -1
        guard dbus_connection_get_socket(raw, &socket) != 0 else {
            throw DBusError(.failed, "the connection has no socket")
        }
        writtenWithoutReading += 1
        dbus_message_set_serial(message.raw, 0x8000_0000 + writtenWithoutReading)
        var bytes: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(message.raw, &bytes, &length) != 0, let bytes else {
            fatalError("libdbus is out of memory marshalling a message")
        }
        defer { dbus_free(bytes) }
        var written = 0
        while written < Int(length) {
            let count = write(socket, bytes + written, Int(length) - written)
            if count > 0 {
                written += count
            } else if errno == EAGAIN || errno == EINTR {
                var writable = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
                _ = poll(&writable, 1, -1)
            } else {
                throw DBusError(.disconnected, "writing to the bus failed: errno \(errno)")
            }
        }
    }
}
