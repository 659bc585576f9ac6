// SPDX-License-Identifier: Apache-2.0
internal import CDBus
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// SIGTERM and SIGINT as a file descriptor an event loop polls (`signalfd`), so that stopping happens on the loop's
/// thread, between two messages, like any other event: how the daemon and the tray stop when systemd, a session or
/// a person ends them, and then exit as a program that finished (which is also when LeakSanitizer checks it).
public final class TerminationSignals {
    public let fileDescriptor: Int32

    /// Blocks the signals for the process (call it before any other thread starts) and opens the descriptor.
    public init() throws(DBusError) {
        var signals = Self.signals
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        // A peer that closes its socket must not kill the program through a write.
        signal(SIGPIPE, SIG_IGN)
        fileDescriptor = signalfd(-1, &signals, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard fileDescriptor >= 0 else { throw DBusError(.failed, "signalfd failed: errno \(errno)") }
    }

    deinit {
        close(fileDescriptor)
    }

    /// Reads the pending signals; returns the last one's number, or nil when none was pending.
    public func take() -> Int32? {
        var info = signalfd_siginfo()
        var last: Int32?
        while read(fileDescriptor, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            last = Int32(info.ssi_signo)
        }
        return last
    }

    /// For a program with no loop of its own to poll (`netactivity watch`, whose library runs its loop): blocks
    /// the signals in the calling thread, which threads started later inherit, and waits for them on a thread of
    /// its own, which ends the program with status 0 when one comes, through `exit`, as a program that finished.
    public static func exitWhenOneComes() {
        var signals = Self.signals
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { _ in
            var signals = TerminationSignals.signals
            var received: Int32 = 0
            while sigwait(&signals, &received) != 0 {}
            exit(0)
        }, nil)
        precondition(started == 0, "pthread_create failed: \(started)")
        pthread_detach(thread)
    }

    private static var signals: sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        return signals
    }
}
