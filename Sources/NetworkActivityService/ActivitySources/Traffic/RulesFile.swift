// SPDX-License-Identifier: Apache-2.0
import ProgramSupport
#if canImport(Glibc)
import Glibc
#endif

/// A file of rules people set that the system service keeps in its state directory (the speed limits, the data
/// plans): written whole and synced at each change (`AtomicFile`), in a directory of mode 0700 made where missing,
/// before the change is answered; read at start, where a file that cannot be read whole (too large, damaged) is
/// kept aside as `NAME.damaged`, with one warning, and none of it holds, rather than half of it.
struct RulesFile<Rules>: Sendable {
    /// The file's name in the directory: `limits`, `plans`.
    let name: String
    /// What the journal calls them: "the limits", "the data plans".
    let words: String
    let maximumSize: Int
    let encode: @Sendable (Rules) -> String
    let decode: @Sendable (String) -> Rules?
    /// How many rules, for the journal.
    let count: @Sendable (Rules) -> Int

    /// Writes `rules` whole; false, with a warning, when they cannot be kept.
    func write(_ rules: Rules, to directory: String, logger: Logger) -> Bool {
        if mkdir(directory, 0o700) != 0, errno != EEXIST {
            logger.warning("cannot keep \(words): cannot create \(directory): \(String(cString: strerror(errno)))")
            return false
        }
        do {
            close(try AtomicFile.replace(directory + "/" + name, with: Array(encode(rules).utf8), durable: true))
            return true
        } catch {
            logger.warning("cannot keep \(words) in \(directory): \(error)")
            return false
        }
    }

    /// The rules kept in the directory; nil for none, or for a file kept aside as damaged.
    func read(from directory: String, logger: Logger) -> Rules? {
        let path = directory + "/" + name
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        guard let rules = readSmallTextFile(atPath: path, maxBytes: maximumSize).flatMap(decode) else {
            logger.warning("\(words) in \(path) cannot be read whole; they are kept as \(path).damaged, and none holds")
            rename(path, path + ".damaged")
            return nil
        }
        logger.info("keeping \(words) in \(path) (\(count(rules)) rules)")
        return rules
    }
}
