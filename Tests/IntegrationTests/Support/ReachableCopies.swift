import Foundation

/// The project's programs and test tools as another Unix user can run them: a clone in a 0700 folder (root's home,
/// or any home Debian 12 makes) keeps its build and its scripts out of every other user's reach, so a test that
/// runs one as a throwaway user runs a copy of it, made once per test process in a folder of its own that
/// everyone may read, and removed when the process exits.
enum ReachableCopies {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var copies: [String: URL] = [:]
    private static let folder: URL = {
        var template = Array("/tmp/netactivity-reachable-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        let path = made.map { String(cString: $0) } ?? "/tmp/netactivity-reachable-\(getpid())"
        chmod(path, 0o755)
        folderPath = path
        atexit { if let path = ReachableCopies.folderPath { try? FileManager.default.removeItem(atPath: path) } }
        return URL(fileURLWithPath: path)
    }()
    nonisolated(unsafe) private static var folderPath: String?

    /// A copy of `file` that every user may read and run.
    static func of(_ file: URL) throws -> URL {
        lock.lock()
        defer { lock.unlock() }
        if let copy = copies[file.path] { return copy }
        let copy = folder.appendingPathComponent("\(copies.count)-\(file.lastPathComponent)")
        try FileManager.default.copyItem(at: file, to: copy)
        guard chmod(copy.path, 0o755) == 0 else { throw TestFailure("cannot make \(copy.path) readable to all") }
        copies[file.path] = copy
        return copy
    }
}
