public import Foundation

/// A new, empty folder in the temporary directory, named after `prefix`; the caller removes it.
public func temporaryDirectory(_ prefix: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("netactivity-\(prefix)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Creates an empty file at `url`, for a process's output; returns `url`.
@discardableResult
public func touch(_ url: URL) throws -> URL {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
        throw HarnessFailure("cannot create \(url.path)")
    }
    return url
}
