// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value that threads share, guarded by a pthread mutex.
///
/// The standard library's `Mutex` does the same job, but on Linux it locks with futex calls made inside a library
/// built without ThreadSanitizer, which therefore never sees the lock and took every access under one for a race
/// (docs/testing.md, "Sanitizers"). glibc's mutex is one it intercepts, so what this guards is checked: the
/// sanitizer run can find a race in the code that shares it, rather than only in the lock.
public final class Lock<State>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var state: State

    public init(_ state: State) {
        self.state = state
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    public func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
