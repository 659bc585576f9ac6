import ArgumentParser
import NetworkActivityClient

/// What `begin`, `end`, `run` and `watch` do once their command line is read, whichever reader read it:
/// swift-argument-parser's commands or `PlainInvocation`.
enum ActivityAction: Equatable {
    case begin(BeginAction)
    case end(EndAction)
    case run(RunAction)
    case watch(WatchAction)

    func run() async throws(ExitCode) {
        switch self {
        case .begin(let action): try await action.run()
        case .end(let action): try await action.run()
        case .run(let action): try await action.run()
        case .watch(let action): try await action.run()
        }
    }
}

struct BeginAction: Equatable {
    var bus: NetworkActivityClient.Bus
    var label: String
    var timeout: UInt32

    func run() async throws(ExitCode) {
        let id = try await reportingFailure { () async throws(NetworkActivityError) in
            try await NetworkActivityClient(bus: bus).beginTimed(label, seconds: timeout).detach()
        }
        _ = printLine(id.description)
    }
}

struct EndAction: Equatable {
    var bus: NetworkActivityClient.Bus
    var id: ActivityID

    func run() async throws(ExitCode) {
        try await reportingFailure { () async throws(NetworkActivityError) in
            try await NetworkActivityClient(bus: bus).end(id)
        }
    }
}

struct RunAction: Equatable {
    var bus: NetworkActivityClient.Bus
    var label: String?
    var strict: Bool
    var notify: Bool
    var command: [String]

    func run() async throws(ExitCode) {
        let label = label ?? String(command[0].split(separator: "/").last ?? "")
        let activity: Activity?
        do throws(NetworkActivityError) {
            activity = try await NetworkActivityClient(bus: bus).begin(label)
        } catch {
            if strict {
                printError("\(error)")
                throw ExitCode.failure
            }
            printError("warning: running \(command[0]) without an activity: \(error)")
            activity = nil
        }
        let started = ContinuousClock.now
        var child: ChildProcess
        do {
            child = try ChildProcess(command)
        } catch {
            printError(error.description)
            throw ExitCode(error.exitStatus)
        }
        let status = child.waitForExit()
        try? await activity?.end()
        if notify {
            RunNotification(command: command, label: label, duration: .now - started, status: status).show()
        }
        if status != 0 { throw ExitCode(status) }
    }
}
