// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Localization
import NetworkActivityClient
import ProgramSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What `begin`, `end`, `run` and `watch` do once their command line is read, whichever reader read it:
/// swift-argument-parser's commands or `PlainInvocation`.
enum ActivityAction: Equatable {
    case begin(BeginAction)
    case end(EndAction)
    case run(RunAction)
    case watch(WatchAction)

    /// Runs the action on this thread, to the status the program exits with. `begin`, `end` and `run` block on their
    /// calls; `watch` awaits its states on this thread too (`CallingThreadExecutor`), without Dispatch's workers.
    func exitStatus() -> Int32 {
        do throws(ExitCode) {
            switch self {
            case .begin(let action): try action.run()
            case .end(let action): try action.run()
            case .run(let action): try action.run()
            case .watch(let action):
                return CallingThreadExecutor.run {
                    do throws(ExitCode) {
                        try await action.run()
                        return 0
                    } catch {
                        return error.rawValue
                    }
                }
            }
            return 0
        } catch {
            return error.rawValue
        }
    }
}

struct BeginAction: Equatable {
    var bus: NetworkActivityClient.Bus
    var label: String
    var timeout: UInt32

    func run() throws(ExitCode) {
        let id = try reportingFailure { () throws(NetworkActivityError) in
            try BlockingActivityCalls(bus: bus).begin(label, seconds: timeout)
        }
        _ = printLine(id.description)
    }
}

struct EndAction: Equatable {
    var bus: NetworkActivityClient.Bus
    var id: ActivityID

    func run() throws(ExitCode) {
        try reportingFailure { () throws(NetworkActivityError) in
            try BlockingActivityCalls(bus: bus).end(id)
        }
    }
}

struct RunAction: Equatable {
    /// How long a command asked to stop has after SIGTERM before SIGKILL, unless `--kill-after` says: as long as
    /// `docker stop` gives a container.
    static let defaultKillAfter: UInt32 = 10

    var bus: NetworkActivityClient.Bus
    var label: String?
    var strict: Bool
    var notify: Bool
    var cancellable = true
    var killAfter = RunAction.defaultKillAfter
    var command: [String]

    func run() throws(ExitCode) {
        let label = label ?? String(command[0].split(separator: "/").last ?? "")
        // The activity belongs to this process's connection, so it ends with this process if it is killed.
        let activity: (calls: BlockingActivityCalls, id: ActivityID)?
        do throws(NetworkActivityError) {
            let calls = try BlockingActivityCalls(bus: bus)
            activity = (calls, try calls.begin(label, seconds: nil))
        } catch {
            if strict {
                printError("\(error)")
                throw ExitCode.failure
            }
            printError(localized("warning: running %s without an activity: %s", command[0], error))
            activity = nil
        }
        // The command, and any script it runs, reports its progress with `netactivity progress $NETACTIVITY_ID …`.
        if let activity { setenv("NETACTIVITY_ID", activity.id.description, 1) }
        let isCancellable = cancellable && activity.map { (try? $0.calls.setCancellable($0.id)) != nil } == true
        let started = MonotonicTime.now
        let child: ChildProcess
        do {
            child = try ChildProcess(command)
        } catch {
            printError(error.description)
            throw ExitCode(error.exitStatus)
        }
        if isCancellable, let activity, let exitDescriptor = child.exitDescriptor,
           activity.calls.awaitCancelRequest(for: activity.id, orReadable: exitDescriptor) {
            stop(child)
        }
        let status = child.waitForExit()
        if let activity { try? activity.calls.end(activity.id) }
        if notify {
            RunNotification(command: command, label: label, duration: started.duration(to: .now), status: status).show()
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// What a user's Ctrl-C would do: SIGTERM, then SIGKILL if the command is still there after `killAfter`.
    private func stop(_ child: ChildProcess) {
        printError(localized("the run of %s was cancelled through the network-activity service; sending it SIGTERM",
                             command[0]))
        child.send(SIGTERM)
        guard !child.awaitExit(within: .seconds(Int64(killAfter))) else { return }
        printError(localized("%s did not stop within %d s; sending it SIGKILL", command[0], killAfter))
        child.send(SIGKILL)
    }
}
