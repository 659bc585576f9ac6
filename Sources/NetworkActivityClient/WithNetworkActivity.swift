extension NetworkActivityClient {
    /// Runs `body` as one activity and ends the activity however `body` exits: by returning, by throwing, or by the
    /// task's cancellation (which `body` sees as `CancellationError` from its own awaits).
    ///
    /// - Parameters:
    ///   - label: what the activity is, for people.
    ///   - strict: false (the default) runs `body` even when the activity cannot begin, as `netactivity run` does:
    ///     the indicator serves the work, it is not a condition of it. True throws that failure instead, and `body`
    ///     does not run.
    ///   - isolation: the caller's actor, on which `body` runs; filled in by the compiler.
    ///   - body: the work.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws; `CancellationError` when the task is cancelled before `body` starts.
    public func withNetworkActivity<Result>(
        _ label: String, strict: Bool = false, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> sending Result
    ) async throws -> sending Result {
        let activity: Activity?
        do {
            activity = try await begin(label)
        } catch .cancelled {
            throw CancellationError()
        } catch {
            if strict { throw error }
            activity = nil
        }
        defer { activity?.endWithoutReply() }
        return try await body()
    }
}
