internal import CDBus
#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM and SIGINT as a file descriptor the event loop polls (`signalfd`), so that stopping happens on the
/// loop's thread, between two messages, like any other event.
final class TerminationSignals {
    let fileDescriptor: Int32

    /// Blocks the signals for the process (call it before any other thread starts) and opens the descriptor.
    init() throws(ServiceError) {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        // A peer that closes its socket must not kill the service through a write.
        signal(SIGPIPE, SIG_IGN)
        fileDescriptor = signalfd(-1, &signals, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard fileDescriptor >= 0 else { throw .system("signalfd failed: errno \(errno)") }
    }

    deinit {
        close(fileDescriptor)
    }

    /// Reads the pending signals; returns the last one's number, or nil when none was pending.
    func take() -> Int32? {
        var info = signalfd_siginfo()
        var last: Int32?
        while read(fileDescriptor, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            last = Int32(info.ssi_signo)
        }
        return last
    }
}
