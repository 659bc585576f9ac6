// SPDX-License-Identifier: Apache-2.0
internal import CDBus
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What libdbus asks of a main loop when a thread other than the loop's leaves something for it
/// (`dbus_connection_set_wakeup_main_function`): a message sent while the loop's thread held the socket (it was
/// reading) is only queued, and libdbus enables no write watch for it; only a loop that wakes and writes sends it.
/// Without this, such a call waited unsent until its timeout.
///
/// libdbus also asks from the loop's own thread, for every message it reads; those wake nothing, since the loop
/// is awake and looks at its connections before it sleeps.
final class LoopWakeUps: Sendable {
    private let signal = WakeUpSignal()
    /// The loop's thread, once it runs (`pthread_t` is an integer on Linux); 0 before.
    private let loopThread = Atomic<UInt>(0)

    /// Readable from a wake-up off the loop's thread until `clear()`.
    var fileDescriptor: Int32 { signal.fileDescriptor }

    /// On the loop's thread, as it starts running.
    func bindToCurrentThread() {
        loopThread.store(UInt(pthread_self()), ordering: .releasing)
    }

    /// Has libdbus call `wake` for `connection`; it keeps this object until it drops the connection.
    func install(on connection: OpaquePointer) {
        dbus_connection_set_wakeup_main_function(
            connection, wakeLoop, Unmanaged.passRetained(self).toOpaque(), releaseWakeUps)
    }

    fileprivate func wake() {
        guard UInt(pthread_self()) != loopThread.load(ordering: .acquiring) else { return }
        signal.raise()
    }

    /// On the loop's thread, once woken: quiet until the next wake-up.
    func clear() {
        signal.clear()
    }
}

extension Connection {
    /// On the loop's thread: writes what other threads left queued, as far as the socket takes it without
    /// blocking (`dbus_connection_read_write` with no wait), which also enables the write watch for what is left.
    func writeWhatOthersQueued() {
        assertOnLoopThread()
        guard dbus_connection_has_messages_to_send(raw) != 0 else { return }
        _ = dbus_connection_read_write(raw, 0)
    }
}

private func wakeLoop(_ box: UnsafeMutableRawPointer?) {
    guard let box else { return }
    Unmanaged<LoopWakeUps>.fromOpaque(box).takeUnretainedValue().wake()
}

private func releaseWakeUps(_ box: UnsafeMutableRawPointer?) {
    guard let box else { return }
    Unmanaged<LoopWakeUps>.fromOpaque(box).release()
}
