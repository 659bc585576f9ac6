// SPDX-License-Identifier: Apache-2.0
extension NetworkActivityClient {
    /// Runs `body` as one activity and ends the activity however `body` exits: by returning, by throwing, or by the
    /// task's cancellation (which `body` sees as `CancellationError` from its own awaits).
    ///
    /// The activity is cancellable: when someone asks to stop it (a panel's "Stop", `netactivity cancel`), the task
    /// that runs `body` is cancelled, which is how a Swift program already stops work it no longer needs; `body`
    /// sees `Task.isCancelled`, and the activity ends when `body` returns.
    ///
    /// - Parameters:
    ///   - label: what the activity is, for people.
    ///   - cancellable: false keeps requests to stop from cancelling the task; the activity is then not offered for
    ///     stopping.
    ///   - strict: false (the default) runs `body` even when the activity cannot begin, as `netactivity run` does:
    ///     the indicator serves the work, it is not a condition of it. True throws that failure instead, and `body`
    ///     does not run.
    ///   - isolation: the caller's actor, on which `body` runs; filled in by the compiler.
    ///   - body: the work.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws; `CancellationError` when the task is cancelled before `body` starts.
    public func withNetworkActivity<Result>(
        _ label: String, strict: Bool = false, cancellable: Bool = true, isolation: isolated (any Actor)? = #isolation,
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
        if cancellable, let activity {
            try? await cancelTaskOnRequest(activity)
        }
        return try await body()
    }

    /// Makes `activity` cancel the current task when someone asks to stop it, until the token ends it. The token
    /// ends it before this task finishes, and takes the handler back first, under the lock the handler runs under: so
    /// the task is never touched after it is gone.
    private func cancelTaskOnRequest(_ activity: Activity) async throws(NetworkActivityError) {
        let task = withUnsafeCurrentTask { UnsafeSendable($0) }
        try await activity.makeCancellable { task.value?.cancel() }
    }
}
