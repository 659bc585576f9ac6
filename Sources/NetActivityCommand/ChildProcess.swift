// SPDX-License-Identifier: Apache-2.0
import CDBus
import ProgramSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A command run as a child that shares this process's terminal, standard streams and environment, and gets
/// the termination signals sent to this process.
struct ChildProcess {
    /// Passed on to the child when another process sends them here.
    static let forwardedSignals = [SIGINT, SIGTERM, SIGHUP]

    /// Why a command could not start, with the exit status a shell gives for it.
    struct SpawnFailure: Error {
        let command: String
        let errorNumber: Int32

        /// 127 for a command that is not there, 126 for one that cannot be run.
        var exitStatus: Int32 { errorNumber == ENOENT ? 127 : 126 }
        var description: String { "\(command): \(String(cString: strerror(errorNumber)))" }
    }

    private let processID: pid_t
    /// Readable once the child has exited (a pidfd); nil on a kernel older than Linux 5.3.
    let exitDescriptor: Int32?

    /// Starts `arguments[0]`, looked up in `PATH`, with the other elements as its arguments.
    ///
    /// From then on the forwarded signals, sent here with `kill`, go on to the child: a handler passes them on,
    /// whichever of this process's threads the kernel gives them to. A signal ignored here, as `nohup` ignores
    /// SIGHUP, gets no handler and stays ignored in the child too; the child starts with the others at their
    /// default actions and with no signal blocked, as `systemd-inhibit` starts its command.
    init(_ arguments: [String]) throws(SpawnFailure) {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))

        // Held back from the moment the child exists until the handler that passes them on is in place: one that
        // came in between (a Ctrl-C as the command starts) would otherwise end this process and leave the child.
        var forwarded = sigset_t()
        sigemptyset(&forwarded)
        for signal in Self.forwardedSignals { sigaddset(&forwarded, signal) }
        var before = sigset_t()
        pthread_sigmask(SIG_BLOCK, &forwarded, &before)

        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawnp(&child, arguments[0], nil, &attributes, argv, environ)
        guard result == 0 else {
            pthread_sigmask(SIG_SETMASK, &before, nil)
            throw SpawnFailure(command: arguments[0], errorNumber: result)
        }
        processID = child
        let pidfd = cdbus_pidfd_open(child)
        exitDescriptor = pidfd >= 0 ? pidfd : nil
        forwardingTarget = child
        for signal in Self.forwardedSignals { Self.passOn(signal) }
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) {
        kill(processID, signal)
    }

    /// Waits up to `timeout` for the child to exit, without reaping it; returns whether it did.
    func awaitExit(within timeout: Duration) -> Bool {
        guard let exitDescriptor else { return false }
        var descriptor = pollfd(fd: exitDescriptor, events: Int16(POLLIN), revents: 0)
        let deadline = MonotonicTime.now + timeout
        while true {
            let left = MonotonicTime.now.duration(to: deadline)
            let milliseconds = Int32(clamping: max(0, left.components.seconds * 1000
                + left.components.attoseconds / 1_000_000_000_000_000))
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return true }
            if ready == 0 || errno != EINTR { return false }
        }
    }

    /// Waits for the child to exit; returns its exit status, or 128+N when signal N killed it, as a shell reports
    /// them.
    func waitForExit() -> Int32 {
        var status: Int32 = 0
        while waitpid(processID, &status, 0) < 0, errno == EINTR {}
        return Self.shellStatus(status)
    }

    /// Installs the handler that passes `signal` on, unless the signal is ignored.
    private static func passOn(_ signal: Int32) {
        var current = sigaction()
        sigaction(signal, nil, &current)
        let ignored = unsafeBitCast(SIG_IGN, to: Int.self)
        guard current.__sigaction_handler.sa_handler.map({ unsafeBitCast($0, to: Int.self) }) != ignored else { return }
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = passOnToChild
        action.sa_flags = SA_SIGINFO | SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, nil)
        // A parent that spawns from a thread blocking the signal leaves it blocked here, and the thread waiting
        // for the child must take it.
        var handled = sigset_t()
        sigemptyset(&handled)
        sigaddset(&handled, signal)
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    }

    /// The `waitpid` status as a shell's `$?`: the exit code, or 128 plus the number of the killing signal.
    private static func shellStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}

/// The child that signals are passed on to, set once before the handler is installed; read by the handler only.
nonisolated(unsafe) private var forwardingTarget: pid_t = 0

/// A signal that the terminal sent (Ctrl-C, a hang-up, `si_code` SI_KERNEL) went to the whole foreground process
/// group, the child included, so it is not sent a second time. Async-signal-safe: it only calls `kill`.
private func passOnToChild(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _: UnsafeMutableRawPointer?) {
    guard let info, info.pointee.si_code != SI_KERNEL else { return }
    kill(forwardingTarget, signal)
}
