import Foundation

/// Runs `body` on a thread of its own and returns what it returns: for a test that must block (a peer reading the
/// bus) while its tasks go on, which a blocked thread of the shared pool (two on a small machine) could starve.
public func onThreadOfItsOwn<Value: Sendable>(
    _ body: @escaping @Sendable () throws -> Value
) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
