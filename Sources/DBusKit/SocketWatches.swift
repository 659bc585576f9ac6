// SPDX-License-Identifier: Apache-2.0
internal import CDBus
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The descriptors libdbus asks to have watched for one connection (`dbus_connection_set_watch_functions`).
///
/// Readiness found by the event loop's `poll()` goes back through `dbus_watch_handle`, which reads or writes at
/// once; `dbus_connection_read_write` would first poll the socket again, one more system call per turn.
final class SocketWatches {
    private var watches: [OpaquePointer] = []
    /// Raised when libdbus adds, removes, enables or disables a watch; libdbus toggles a watch under the
    /// connection's lock on whichever thread sends.
    private let changed = Atomic(true)

    /// Installs the watch functions; libdbus holds this object retained until it drops them with the connection.
    func install(on connection: OpaquePointer) {
        let box = Unmanaged.passRetained(self).toOpaque()
        guard dbus_connection_set_watch_functions(
            connection, addWatch, removeWatch, toggleWatch, box, releaseWatches) != 0
        else { fatalError("libdbus is out of memory setting watch functions") }
    }

    fileprivate func add(_ watch: OpaquePointer) {
        watches.append(watch)
        changed.store(true, ordering: .releasing)
    }

    fileprivate func remove(_ watch: OpaquePointer) {
        watches.removeAll { $0 == watch }
        changed.store(true, ordering: .releasing)
    }

    fileprivate func toggled() {
        changed.store(true, ordering: .releasing)
    }

    /// Whether a watch changed since the last call: the descriptors to poll must be collected again.
    func takeChange() -> Bool {
        changed.exchange(false, ordering: .acquiringAndReleasing)
    }

    /// Appends a `pollfd` for each enabled watch to `descriptors`, and the watch itself to `polled`, in the same
    /// order.
    func collect(into descriptors: inout [pollfd], polled: inout [OpaquePointer]) {
        for watch in watches where dbus_watch_get_enabled(watch) != 0 {
            let flags = dbus_watch_get_flags(watch)
            var events: Int16 = 0
            if flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= Int16(POLLIN) }
            if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= Int16(POLLOUT) }
            descriptors.append(pollfd(fd: dbus_watch_get_unix_fd(watch), events: events, revents: 0))
            polled.append(watch)
        }
    }

    /// Lets libdbus read or write what `poll()` found ready. A watch that libdbus removed meanwhile (the connection
    /// closed while an earlier one was handled) is skipped.
    func handle(_ watch: OpaquePointer, revents: Int16) {
        guard watches.contains(watch) else { return }
        var flags: UInt32 = 0
        if revents & Int16(POLLIN) != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
        if revents & Int16(POLLOUT) != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
        if revents & Int16(POLLERR) != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
        if revents & Int16(POLLHUP) != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
        // FALSE only means libdbus ran out of memory; it keeps the data and is asked again on the next turn.
        _ = dbus_watch_handle(watch, flags)
    }
}

private func addWatch(_ watch: OpaquePointer?, _ box: UnsafeMutableRawPointer?) -> dbus_bool_t {
    guard let watch, let box else { return 0 }
    Unmanaged<SocketWatches>.fromOpaque(box).takeUnretainedValue().add(watch)
    return 1
}

private func toggleWatch(_ watch: OpaquePointer?, _ box: UnsafeMutableRawPointer?) {
    guard let box else { return }
    Unmanaged<SocketWatches>.fromOpaque(box).takeUnretainedValue().toggled()
}

private func removeWatch(_ watch: OpaquePointer?, _ box: UnsafeMutableRawPointer?) {
    guard let watch, let box else { return }
    Unmanaged<SocketWatches>.fromOpaque(box).takeUnretainedValue().remove(watch)
}

private func releaseWatches(_ box: UnsafeMutableRawPointer?) {
    guard let box else { return }
    Unmanaged<SocketWatches>.fromOpaque(box).release()
}
