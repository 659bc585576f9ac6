// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one way the programs replace a file: written beside it as `NAME.new`, then renamed over it, so that a crash
/// at any moment leaves the whole old file or the whole new one (the service's state journal, the tray's list of
/// apps shown on docks, the data usage). Mode 0600, links not followed. By default no `fsync`: what is kept is to
/// survive the program, not the machine; a `durable` replacement survives the machine too.
public enum AtomicFile {
    /// A system call that failed: what was being done, and `errno`.
    public struct Failure: Error, CustomStringConvertible {
        public let action: String
        public let number: Int32

        public var description: String { "\(action): \(String(cString: strerror(number)))" }
    }

    /// Replaces `name` in the directory open as `directory` (`AT_FDCWD`: the working directory, or `name` is a
    /// path) with `bytes`; returns the new file, open for writing at its end, for a journal that goes on.
    /// `durable`: the new file is synced before the rename and its directory after it, so that a power cut too
    /// leaves the whole old file or the whole new one (as ext4's `auto_da_alloc` does not promise alone).
    public static func replace(_ name: String, in directory: Int32 = AT_FDCWD, with bytes: [UInt8],
                               durable: Bool = false) throws(Failure) -> Int32 {
        let newName = name + ".new"
        let file = openat(directory, newName, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw Failure(action: "cannot create \(newName)", number: errno) }
        do throws(Failure) {
            guard fchmod(file, 0o600) == 0 else {
                throw Failure(action: "cannot set the mode of \(newName)", number: errno)
            }
            try write(bytes, to: file)
            if durable, fsync(file) != 0 { throw Failure(action: "cannot sync \(newName)", number: errno) }
            guard renameat(directory, newName, directory, name) == 0 else {
                throw Failure(action: "cannot rename \(newName) to \(name)", number: errno)
            }
            if durable { try syncFolder(of: name, in: directory) }
            return file
        } catch {
            close(file)
            unlinkat(directory, newName, 0)
            throw error
        }
    }

    /// Syncs the directory that holds `name`, so that its rename is on the disk.
    private static func syncFolder(of name: String, in directory: Int32) throws(Failure) {
        let folder: String
        if let slash = name.lastIndex(of: "/") {
            folder = slash == name.startIndex ? "/" : String(name[..<slash])
        } else {
            folder = "."
        }
        let descriptor = openat(directory, folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(action: "cannot open \(folder)", number: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Failure(action: "cannot sync \(folder)", number: errno) }
    }

    /// Writes all of `bytes` to `file`, again after an interruption.
    public static func write(_ bytes: [UInt8], to file: Int32) throws(Failure) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(file, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(action: "cannot write", number: errno)
            }
            written += count
        }
    }
}
