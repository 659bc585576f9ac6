// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// Whether standard error is connected to the systemd journal.
///
/// systemd sets `JOURNAL_STREAM` to the device and inode numbers (`"8:12345"`) of the stream it connects a
/// service's stdout and stderr to. The variable is inherited by children whose stderr may go elsewhere (a shell
/// redirecting it to a file), so, as `sd_journal_stream_fd(3)` advises, it counts only when it names the stream
/// that standard error is now.
enum JournalStream {
    static func isStandardError(environment value: String? = getenv("JOURNAL_STREAM").map { String(cString: $0) })
        -> Bool
    {
        guard let value else { return false }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }
}
