#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs `body` (a process's start) with no signal blocked in the calling thread, whose mask a new process inherits:
/// the test runner's worker threads block every signal, and a program started from one would otherwise never get
/// the SIGTERM that stops it, as it would get it on a desktop.
public func withSignalsUnblocked<Result>(_ body: () throws -> Result) rethrows -> Result {
    var none = sigset_t()
    var before = sigset_t()
    sigemptyset(&none)
    pthread_sigmask(SIG_SETMASK, &none, &before)
    defer { pthread_sigmask(SIG_SETMASK, &before, nil) }
    return try body()
}
