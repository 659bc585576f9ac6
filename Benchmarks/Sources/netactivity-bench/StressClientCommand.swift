// SPDX-License-Identifier: Apache-2.0
import ServiceHarness
import ArgumentParser
import DBusKit
import Foundation
import NetworkActivityInterface
import ProgramSupport

/// One client process of `stress`: calls the service at random and tells the stress run, one line per event on
/// standard output, what it did, so that the run's ledger knows what should be alive even if it is killed.
///
/// Lines out: `hello NAME`; before each call `calling begin LABEL`, `calling timed SECONDS LABEL`,
/// `calling end ID` or `calling cancel`; after it `begun ID SENT_US REPLIED_US`, `ended ID`, `expired ID`,
/// `cancelled COUNT`, `unanswered` (the service was killed before it answered, or was not there), `mismatch TEXT`
/// or `failed ERROR`; `idle CALLS` once stopped; `bye CALLS` before exiting.
/// Lines in: `stop` (stop calling, keep the connection), then `exit`.
struct StressClientCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stress-client", abstract: "One client process of a stress run (started by stress).",
        shouldDisplay: false)

    @Option var address: String
    @Option var seed: UInt64
    @Option var index: Int
    @Option(help: "Mean seconds before the client exits by itself.") var lifetime: Double
    @Option var maxHeld = 30
    @Option var maxTimeout: UInt32 = 3

    /// A timed activity's deadline can only be known to lie between the call's sending and its reply, plus
    /// its seconds; it may be reached this much either side of that window without counting as a mismatch.
    static let earlyTolerance: UInt64 = 5_000
    static let lateTolerance: UInt64 = 1_000_000

    func run() throws {
        let connection = try Connection(bus: .address(address))
        var random = SeededGenerator(seed: seed, part: index)
        emit("hello \(connection.uniqueName)")
        var client = StressClient(connection: connection, index: index, maxTimeout: maxTimeout)
        let exitAt = ContinuousClock.now + .seconds(-lifetime * log(Double.random(in: 0.001..<1, using: &random)))
        while true {
            if nextCommand(waiting: false) == "stop" {
                emit("idle \(client.calls)")
                while nextCommand(waiting: true) != "exit" {}
                return
            }
            if ContinuousClock.now >= exitAt {
                emit("bye \(client.calls)")
                return
            }
            client.step(random: &random, maxHeld: maxHeld)
        }
    }

    /// A line from the stress run on standard input, if one is there (or, `waiting`, once one comes).
    private func nextCommand(waiting: Bool) -> String? {
        var poller = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, waiting ? -1 : 0) > 0 else { return nil }
        guard let line = readLine() else { return "exit" }
        return line
    }
}

/// What one stress client holds and how it calls; every event is written out as it happens.
struct StressClient {
    let connection: Connection
    let index: Int
    let maxTimeout: UInt32
    private(set) var calls = 0
    private var bound: [UInt32] = []
    /// Timed activities and when they fall due, on the monotonic clock: this machine's wall clock may jump.
    private var timed: [(id: UInt32, dueFrom: UInt64, dueBy: UInt64)] = []
    private var labels = 0
    /// Activities it may hold without knowing them: those of the calls that a killed service left unanswered.
    private var maybeHeld = 0

    init(connection: Connection, index: Int, maxTimeout: UInt32) {
        self.connection = connection
        self.index = index
        self.maxTimeout = maxTimeout
    }

    private static let decorations = ["", "·mail", "ünïcode", "<b>", "&amp;", "\"q\"", "back\\slash"]

    mutating func step(random: inout SeededGenerator, maxHeld: Int) {
        let held = bound.count + timed.count
        let roll = Double.random(in: 0..<1, using: &random)
        switch roll {
        case ..<0.35 where held < maxHeld: begin(seconds: nil, random: &random)
        case ..<0.50 where held < maxHeld: begin(seconds: UInt32.random(in: 1...maxTimeout, using: &random),
                                                 random: &random)
        case ..<0.56 where held > 0: progress(Int.random(in: 0..<held, using: &random), random: &random)
        case ..<0.60 where held > 0: makeCancellable(Int.random(in: 0..<held, using: &random))
        case ..<0.97 where held > 0: end(Int.random(in: 0..<held, using: &random))
        case ..<0.97: begin(seconds: nil, random: &random)
        case ..<0.98: cancel()
        default: usleep(UInt32.random(in: 0..<2000, using: &random))
        }
    }

    private mutating func begin(seconds: UInt32?, random: inout SeededGenerator) {
        labels += 1
        let label = "c\(index)-\(labels)\(Self.decorations.randomElement(using: &random)!)"
        emit(seconds.map { "calling timed \($0) \(label)" } ?? "calling begin \(label)")
        let (sent, sentWall) = (UInt64(MonotonicTime.now.microseconds), SystemClock.wallClockMicroseconds())
        let reply = call(seconds.map { ServiceMembers.beginWithTimeout.serviceCall(label, $0) }
                         ?? ServiceMembers.begin.serviceCall(label))
        let (replied, repliedWall) = (UInt64(MonotonicTime.now.microseconds), SystemClock.wallClockMicroseconds())
        guard case .success(let id) = reply else {
            if case .failure(.unanswered) = reply { maybeHeld += 1 }
            return
        }
        emit("begun \(id) \(sentWall) \(repliedWall)")
        if let seconds {
            timed.append((id, sent + UInt64(seconds) * 1_000_000, replied + UInt64(seconds) * 1_000_000))
        } else {
            bound.append(id)
        }
    }

    private mutating func end(_ index: Int) {
        let isBound = index < bound.count
        let id = isBound ? bound.remove(at: index) : timed[index - bound.count].id
        emit("calling end \(id)")
        let sent = UInt64(MonotonicTime.now.microseconds)
        let result = callResult(ServiceMembers.end.serviceCall(id))
        // The service handled the call between these two moments.
        let replied = UInt64(MonotonicTime.now.microseconds)
        if case .failure(let error) = result, error.isUnanswered {
            if !isBound { timed.remove(at: index - bound.count) }
            maybeHeld += 1
            return unanswered()
        }
        if isBound {
            if case .failure(let error) = result { emit("mismatch End of bound activity \(id) failed: \(error)") }
            else { emit("ended \(id)") }
            return
        }
        let activity = timed.remove(at: index - bound.count)
        switch result {
        case .success:
            emit("ended \(id)")
            if sent > activity.dueBy + StressClientCommand.lateTolerance {
                emit("mismatch timed activity \(id) was still there \(sent - activity.dueBy) µs after its deadline")
            }
        case .failure(let error) where error.name == .unknownActivity:
            emit("expired \(id)")
            if replied + StressClientCommand.earlyTolerance < activity.dueFrom {
                emit("mismatch timed activity \(id) was gone \(activity.dueFrom - replied) µs before its deadline")
            }
        case .failure(let error):
            emit("mismatch End of timed activity \(id) failed: \(error)")
        }
    }

    /// `SetProgress` on one of its own, with a percent over 100 one time in eleven, which must be refused.
    private mutating func progress(_ index: Int, random: inout SeededGenerator) {
        let (id, isTimed) = index < bound.count ? (bound[index], false) : (timed[index - bound.count].id, true)
        let percent = UInt32.random(in: 0...110, using: &random)
        emit("calling progress \(id) \(percent)")
        switch callResult(ServiceMembers.setProgress.serviceCall(id, percent)) {
        case .failure(let error) where error.isUnanswered: unanswered()
        case .success where percent <= 100: emit("progressed \(id) \(percent)")
        case .failure(let error) where percent > 100 && error.name == .invalidArgs: emit("refused \(id)")
        // A timed activity may have reached its deadline.
        case .failure(let error) where isTimed && error.name == .unknownActivity: emit("refused \(id)")
        case .success: emit("mismatch SetProgress \(id) \(percent) was taken")
        case .failure(let error): emit("mismatch SetProgress \(id) \(percent) failed: \(error)")
        }
    }

    /// Becomes the one asked to stop one of its own: once it has gone, the activity must not be cancellable.
    private mutating func makeCancellable(_ index: Int) {
        let (id, isTimed) = index < bound.count ? (bound[index], false) : (timed[index - bound.count].id, true)
        emit("calling cancellable \(id)")
        switch callResult(ServiceMembers.setCancellable.serviceCall(id, true)) {
        case .failure(let error) where error.isUnanswered: unanswered()
        case .success: emit("refused \(id)")
        case .failure(let error) where isTimed && error.name == .unknownActivity: emit("refused \(id)")
        case .failure(let error): emit("mismatch SetCancellable \(id) failed: \(error)")
        }
    }

    private mutating func cancel() {
        emit("calling cancel")
        let reply = call(ServiceMembers.cancel.serviceCall())
        defer {
            bound.removeAll()
            timed.removeAll()
        }
        guard case .success(let count) = reply else {
            if case .failure(.unanswered) = reply { maybeHeld += bound.count + timed.count }
            return
        }
        let replied = UInt64(MonotonicTime.now.microseconds)
        emit("cancelled \(count)")
        // Live for sure when the service handled the call, which it did before this reply.
        let surelyLive = bound.count + timed.count(where: { $0.dueFrom > replied + StressClientCommand.earlyTolerance })
        let mostLive = bound.count + timed.count + maybeHeld
        if Int(count) < surelyLive || Int(count) > mostLive {
            emit("mismatch Cancel ended \(count), expected \(surelyLive) to \(mostLive)")
        }
        maybeHeld = 0
    }

    /// Why a call that expects an answer has none.
    enum CallFailure: Error {
        /// The service was killed before it answered, or was not there: the call may or may not have happened.
        case unanswered
        case failed
    }

    private mutating func call<Reply>(_ serviceCall: ServiceCall<Reply>) -> Result<Reply, CallFailure> {
        switch callResult(serviceCall) {
        case .success(let reply): return .success(reply)
        case .failure(let error) where error.isUnanswered:
            unanswered()
            return .failure(.unanswered)
        case .failure(let error):
            emit("failed \(serviceCall.message.member ?? "") \(error)")
            return .failure(.failed)
        }
    }

    /// Says so, and leaves the service a moment to come back rather than calling it in a tight loop meanwhile.
    private func unanswered() {
        emit("unanswered")
        usleep(20_000)
    }

    private mutating func callResult<Reply>(_ serviceCall: ServiceCall<Reply>) -> Result<Reply, DBusError> {
        calls += 1
        do {
            return .success(try connection.call(serviceCall, timeout: .seconds(25)))
        } catch {
            return .failure(error)
        }
    }
}

extension DBusError {
    /// The service's connection went away before it answered (it was killed), or no one owned its name: whether
    /// the call happened is unknown.
    var isUnanswered: Bool {
        [ErrorName.noReply, .serviceUnknown, .nameHasNoOwner].contains(name)
    }
}

/// Writes one line to standard output at once, with no buffer that a SIGKILL could lose.
func emit(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    var written = 0
    while written < bytes.count {
        let count = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress! + written, $0.count - written) }
        guard count > 0 else { return }
        written += count
    }
}
