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
    private var awaitedSignals: sigset_t

    /// Starts `arguments[0]`, looked up in `PATH`, with the other elements as its arguments.
    ///
    /// The forwarded signals and `SIGCHLD` are blocked here first, so that from now on they queue for
    /// `waitForExit()` instead of killing this process. The child starts with no signal blocked, as
    /// `systemd-inhibit` starts its command, and with the actions this process inherited: a signal ignored
    /// here, as `nohup` ignores SIGHUP, stays ignored there.
    init(_ arguments: [String]) throws(SpawnFailure) {
        awaitedSignals = sigset_t()
        sigemptyset(&awaitedSignals)
        for signal in Self.forwardedSignals + [SIGCHLD] { sigaddset(&awaitedSignals, signal) }
        sigprocmask(SIG_BLOCK, &awaitedSignals, nil)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))

        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawnp(&child, arguments[0], nil, &attributes, argv, environ)
        guard result == 0 else { throw SpawnFailure(command: arguments[0], errorNumber: result) }
        processID = child
    }

    /// Waits for the child to exit, passing on the forwarded signals meanwhile; returns its exit status, or
    /// 128+N when signal N killed it, as a shell reports them.
    ///
    /// A signal that the terminal sent (Ctrl-C, a hang-up) went to the whole foreground process group, the child
    /// included, so it is not sent a second time.
    mutating func waitForExit() -> Int32 {
        var info = siginfo_t()
        while true {
            let signal = sigwaitinfo(&awaitedSignals, &info)
            if signal == SIGCHLD {
                var status: Int32 = 0
                if waitpid(processID, &status, WNOHANG) == processID { return Self.shellStatus(status) }
            } else if signal > 0, info.si_code != SI_KERNEL {
                kill(processID, signal)
            }
        }
    }

    /// The `waitpid` status as a shell's `$?`: the exit code, or 128 plus the number of the killing signal.
    private static func shellStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
