// SPDX-License-Identifier: Apache-2.0
import ProgramSupport
#if canImport(Glibc)
import Glibc
#endif

/// The directory where the service keeps its activities across restarts, and the files in it: `state`, the
/// journal being written; `state.new` while a fresh one is written (`AtomicFile`); `state.damaged`, the last file that could not
/// be read whole, kept for a bug report.
///
/// The directory is the service's user's alone (0700, the files 0600), and locked while a service uses it: a
/// second instance, on another bus or one that is replacing this one, waits for the lock, so that it reads the
/// file only once the first has written its last and gone.
final class StateDirectory {
    let path: String
    private let descriptor: Int32
    /// The journal, open for writing at its end; -1 until a file is begun.
    private var journal: Int32 = -1

    static let fileName = "state"
    static let damagedFileName = "state.damaged"

    /// Opens the directory, creating it if need be, and takes its lock, waiting up to `lockTimeout`.
    init(path: String, lockTimeout: Duration) throws(StateDirectoryError) {
        self.path = path
        if mkdir(path, 0o700) != 0, errno != EEXIST { throw .system("cannot create \(path)", errno) }
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system("cannot open \(path)", errno) }
        do throws(StateDirectoryError) {
            try checkOwnership()
            try lock(timeout: lockTimeout)
        } catch {
            close(descriptor)
            throw error
        }
    }

    deinit {
        if journal >= 0 { close(journal) }
        close(descriptor)
    }

    /// The journal's bytes, nil when there is none; a failure with the reason when it could not be read.
    func read(maximumBytes: Int) -> Result<[UInt8]?, StateDirectoryError> {
        let file = openat(descriptor, Self.fileName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard file >= 0 else {
            return errno == ENOENT ? .success(nil) : .failure(.system("cannot open \(Self.fileName)", errno))
        }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0 else { return .failure(.system("cannot examine \(Self.fileName)", errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(.refused("\(Self.fileName) is not a file")) }
        guard Int(status.st_size) <= maximumBytes else {
            return .failure(.refused("\(Self.fileName) is \(status.st_size) bytes, more than the \(maximumBytes) it may be"))
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        return .success(Array(bytes[..<filled]))
    }

    /// Moves the journal aside as `state.damaged`, replacing the one kept before: one for a bug report, not a pile.
    func keepAside() {
        renameat(descriptor, Self.fileName, descriptor, Self.damagedFileName)
    }

    /// Replaces the journal at once with a new one that starts with `bytes`: written aside, then renamed over the
    /// old, so that a crash at any moment leaves one whole file or the other.
    func begin(with bytes: [UInt8]) throws(StateDirectoryError) {
        let file: Int32
        do {
            file = try AtomicFile.replace(Self.fileName, in: descriptor, with: bytes)
        } catch {
            throw .system(error.action, error.number)
        }
        if journal >= 0 { close(journal) }
        journal = file
    }

    /// Adds `bytes` at the end of the journal: one `write`, to a tmpfs in the places the service uses by default,
    /// and no `fsync`, since the state is to survive the service, not the machine.
    func append(_ bytes: [UInt8]) throws(StateDirectoryError) {
        do {
            try AtomicFile.write(bytes, to: journal)
        } catch {
            throw .system("cannot write to \(path)", error.number)
        }
    }

    /// Gives up keeping state: removes the journal, which would otherwise bring back what ended after it.
    func remove() {
        if journal >= 0 { close(journal) }
        journal = -1
        unlinkat(descriptor, Self.fileName, 0)
    }

    /// The directory must be the service's user's alone: a directory another user can write to could be given a
    /// state to restore, or a link to follow.
    private func checkOwnership() throws(StateDirectoryError) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .system("cannot examine \(path)", errno) }
        guard status.st_uid == geteuid() else {
            throw .refused("\(path) belongs to user \(status.st_uid), not to the service's user \(geteuid())")
        }
        if status.st_mode & 0o077 != 0, fchmod(descriptor, 0o700) != 0 {
            throw .system("cannot make \(path) private (0700)", errno)
        }
    }

    /// Waits for the lock that an instance holds while it uses the directory, checking every 10 ms.
    private func lock(timeout: Duration) throws(StateDirectoryError) {
        let deadline = MonotonicTime.now + timeout
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw .system("cannot lock \(path)", errno) }
            guard MonotonicTime.now < deadline else {
                throw .refused("another netactivityd keeps its state in \(path): its lock was held for \(timeout)")
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
            nanosleep(&pause, nil)
        }
    }
}

/// Why the state directory cannot be used.
enum StateDirectoryError: Error, CustomStringConvertible {
    case system(String, Int32)
    case refused(String)

    var description: String {
        switch self {
        case .system(let what, let number): "\(what): \(String(cString: strerror(number)))"
        case .refused(let what): what
        }
    }
}
