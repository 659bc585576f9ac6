// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Foundation
import NetworkActivityInterface
import ServiceHarness
import ProgramSupport

/// Many client processes call the daemon at random, exit or are killed, for a while; then the daemon's state is
/// compared with a ledger of what should be alive (docs/reliability.md).
struct StressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stress",
        abstract: "Runs client processes against netactivityd at random, kills some, and checks its state.",
        discussion: """
            Starts a dbus-daemon and the netactivityd (its default delays) of its own. Keeps --clients client \
            processes running for --seconds: each calls Begin, BeginWithTimeout, End and Cancel at random and \
            exits by itself or is killed with SIGKILL, on average after --lifetime seconds each way, and is \
            replaced. Then every client stops, and ActiveCount and ListActivities must equal the ledger kept from \
            the clients' reports; then every client exits or is killed, and once every deadline has passed the \
            service must hold nothing and Visible must equal the last VisibilityChanged seen; how fast it then \
            answers is measured, and with --answer-limit must be within that. With --restarts, the service is also killed with SIGKILL that many times at random \
            moments and started again on its state directory: it must take over every activity whose call was \
            answered and whose owner is still there. Exits 1 if anything differs.
            """)

    @Option(help: ArgumentHelp("The netactivityd to test (default: the release build's).", valueName: "path"))
    var daemon: String?

    @Option(help: "Client processes running at once.") var clients = 50
    @Option(help: "Seconds the clients run.") var seconds: Double = 10
    @Option(help: "Mean seconds until a client exits by itself, and until it is killed.") var lifetime: Double = 4
    @Option(help: "Times the service is killed (SIGKILL) at a random moment and started again.") var restarts = 0
    @Option(help: "The seed of every random choice; the same seed makes the same choices.") var seed: UInt64 = 1
    @Option(help: ArgumentHelp(
        "A mismatch when the daemon's final answer (median of 5 pings) takes longer: a measurement's bound, which a "
            + "test on a busy machine leaves off.", valueName: "milliseconds"))
    var answerLimit: Double?
    @Flag(help: "Print the figures as JSON.") var json = false

    static let maxTimeout: UInt64 = 3

    func validate() throws {
        guard clients >= 1, clients <= 5000 else { throw ValidationError("--clients takes 1 to 5000.") }
        guard seconds > 0, seconds <= 86400 else { throw ValidationError("--seconds takes 0 to 86400.") }
        guard lifetime > 0 else { throw ValidationError("--lifetime must be above 0.") }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let bus = try PrivateBus()
        let executable = try DaemonExecutable.find(daemon)
        let arguments = ["--state-dir", bus.stateDirectory.path]
        let startService = { try DaemonProcess(bus: bus, arguments: arguments, executable: executable) }
        var service = try startService()
        let probe = try ServiceProbe(bus)
        var run = StressRun(bus: bus, probe: probe, seed: seed, lifetime: lifetime)

        try run.keep(clients, running: .seconds(seconds), restarts: restarts) {
            service.send(SIGKILL)
            _ = service.exitStatus()
            service = try startService()
        }
        try run.stopClients()
        try run.compareWithLedger()
        try run.endClients()
        try run.compareDetailsWithLedger()
        try run.awaitNothingLeft()
        try run.compareWithLedger()
        let answer = try run.checkAnswers(limit: answerLimit.map { .microseconds(Int64($0 * 1000)) })

        var figures = run.figures
        figures["peak_rss_kib"] = try service.peakResidentKiB
        figures["rss_end_kib"] = try service.residentKiB
        figures["answer_us"] = Int(answer.microseconds)
        let mismatches = run.ledger.mismatches + (service.process.isRunning ? [] : ["the daemon is not running"])
        figures["mismatches"] = mismatches.count
        print(json ? try Self.json(figures) : Self.table(figures, clients: clients, seconds: seconds, seed: seed),
              terminator: "")
        for mismatch in mismatches.prefix(20) { FileHandle.standardError.write(Data("mismatch: \(mismatch)\n".utf8)) }
        if !mismatches.isEmpty { throw ExitCode(1) }
    }

    static let rows: [(key: String, label: String)] = [
        ("clients_started", "client processes started"), ("calls", "calls made"),
        ("clients_killed", "clients killed with SIGKILL"), ("clients_exited", "clients that exited by themselves"),
        ("service_restarts", "service killed with SIGKILL and started again"),
        ("unanswered", "calls the killed service left unanswered"),
        ("reclaimed", "activities of departed clients reclaimed"),
        ("visibility_signals", "VisibilityChanged signals seen"),
        ("peak_rss_kib", "daemon peak RSS (KiB)"), ("rss_end_kib", "daemon RSS at the end (KiB)"),
        ("answer_us", "daemon's answer at the end, median of 5 (µs)"), ("mismatches", "mismatches"),
    ]

    static func table(_ figures: [String: Int], clients: Int, seconds: Double, seed: UInt64) -> String {
        var text = "netactivity-bench stress: \(clients) clients, \(seconds) s, seed \(seed)\n"
        for (key, label) in rows { text += "\(label.padding(toLength: 48, withPad: " ", startingAt: 0)) \(figures[key] ?? 0)\n" }
        return text
    }

    static func json(_ figures: [String: Int]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys]), as: UTF8.self) + "\n"
    }
}

/// The clients of one stress run, its ledger and its figures.
struct StressRun {
    let bus: PrivateBus
    let probe: ServiceProbe
    let seed: UInt64
    let lifetime: Double
    private(set) var ledger = StressLedger()
    private var running: [(process: ClientProcess, client: StressLedger.Client)] = []
    private var random: SeededGenerator
    private var started = 0
    private var killedProcesses = Set<pid_t>()
    private var killed: Int { killedProcesses.count }
    private var exited = 0
    private var calls = 0
    private var restarts = 0
    private var unanswered = 0

    init(bus: PrivateBus, probe: ServiceProbe, seed: UInt64, lifetime: Double) {
        self.bus = bus
        self.probe = probe
        self.seed = seed
        self.lifetime = lifetime
        random = SeededGenerator(seed: seed, part: -1)
    }

    var figures: [String: Int] {
        ["clients_started": started, "calls": calls, "clients_killed": killed, "clients_exited": exited,
         "reclaimed": ledger.reclaimed, "service_restarts": restarts, "unanswered": unanswered,
         "visibility_signals": probe.visibilitySignals.shown + probe.visibilitySignals.hidden]
    }

    /// Keeps `count` clients running for `duration`, killing some at random, and the service `restarts` times
    /// (`restart` kills it and starts it again).
    mutating func keep(_ count: Int, running duration: Duration, restarts: Int = 0, restart: () throws -> Void) throws {
        let end = ContinuousClock.now + duration
        var lastTurn = ContinuousClock.now
        var restartMoments = (0..<restarts).map { _ in
            lastTurn + duration * Double.random(in: 0.05..<0.95, using: &random)
        }.sorted()
        while lastTurn < end {
            while running.count < count { try startClient() }
            ClientProcess.awaitOutput(of: running.map(\.process), timeout: .milliseconds(10))
            var unansweredNow = 0
            readClients { line, _ in if line == "unanswered" { unansweredNow += 1 } }
            unanswered += unansweredNow
            let turn = ContinuousClock.now
            if let due = restartMoments.first, turn >= due {
                restartMoments.removeFirst()
                try restart()
                self.restarts += 1
                // A service that is killed says nothing; the next one starts hidden unless it takes activities over.
                probe.serviceRestarted()
            }
            for (process, client) in running
            where !client.isLeaving && random.chance(lastTurn.duration(to: turn).seconds / lifetime) {
                kill(process)
            }
            lastTurn = turn
            try probe.takeSignals(waiting: .zero)
        }
    }

    private mutating func kill(_ process: ClientProcess) {
        guard killedProcesses.insert(process.processID).inserted else { return }
        process.kill()
    }

    private mutating func startClient() throws {
        let process = try ClientProcess(arguments: [
            "stress-client", "--address", bus.address, "--seed", "\(seed)", "--index", "\(started)",
            "--lifetime", "\(lifetime)", "--max-timeout", "\(StressCommand.maxTimeout)",
        ])
        started += 1
        running.append((process, StressLedger.Client()))
    }

    /// Reads every client's lines, passing each to `seen` too; a client whose output ended is gone.
    private mutating func readClients(_ seen: (Substring, ClientProcess) -> Void = { _, _ in }) {
        for index in running.indices.reversed() {
            for line in running[index].process.availableLines() {
                ledger.record(line, from: &running[index].client)
                seen(line, running[index].process)
            }
            if running[index].process.reachedEnd { clientGone(at: index) }
        }
    }

    private mutating func clientGone(at index: Int) {
        let (process, client) = running.remove(at: index)
        // A client killed just after it said bye counts as killed: the kill may have come first.
        if !killedProcesses.contains(process.processID) { exited += 1 }
        calls += client.calls
        ledger.clientGone(client, at: SystemClock.wallClockMicroseconds(),
                          maxTimeout: StressCommand.maxTimeout)
    }

    /// Tells every client to stop calling and waits until each has said so (or has gone).
    mutating func stopClients() throws {
        for (process, _) in running { process.send("stop") }
        var idle = Set<pid_t>()
        let deadline = ContinuousClock.now + .seconds(30)
        while running.contains(where: { !idle.contains($0.process.processID) }) {
            guard ContinuousClock.now < deadline else { throw BenchFailure("clients did not stop within 30 s") }
            ClientProcess.awaitOutput(of: running.map(\.process), timeout: .milliseconds(100))
            readClients { line, process in
                if line.hasPrefix("idle") { idle.insert(process.processID) }
            }
        }
    }

    /// `ActiveCount` and `ListActivities` against the ledger, and `Visible` against the last signal seen.
    mutating func compareWithLedger() throws {
        let countBefore = try probe.activeCount
        let from = SystemClock.wallClockMicroseconds()
        let listed = try probe.activities
        let by = SystemClock.wallClockMicroseconds()
        let countAfter = try probe.activeCount
        if countBefore == countAfter, Int(countBefore) != listed.count {
            ledger.mismatch("ActiveCount is \(countBefore), ListActivities lists \(listed.count)")
        }
        ledger.compare(with: listed, listedFrom: from, listedBy: by)
        let visible = try probe.visible
        if visible != (probe.lastVisibilitySignal ?? false) {
            ledger.mismatch("Visible is \(visible), the last VisibilityChanged said \(probe.lastVisibilitySignal ?? false)")
        }
    }

    /// `GetActivities` against the ledger once every client has gone, after the service has seen the last leave.
    mutating func compareDetailsWithLedger() throws {
        do {
            try probe.await("no activity cancellable", timeout: .seconds(10)) {
                try !probe.details.contains(where: \.isCancellable)
            }
        } catch {}
        ledger.compare(withDetails: try probe.details)
    }

    /// Every client exits or, at random, is killed; waits until all are gone.
    mutating func endClients() throws {
        for (process, client) in running where !client.isLeaving {
            if random.chance(0.5) {
                kill(process)
            } else {
                process.send("exit")
            }
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while !running.isEmpty {
            guard ContinuousClock.now < deadline else { throw BenchFailure("clients did not exit within 30 s") }
            ClientProcess.awaitOutput(of: running.map(\.process), timeout: .milliseconds(100))
            readClients()
        }
    }

    /// Once every deadline has passed, the service must hold nothing and hide the indicator.
    mutating func awaitNothingLeft() throws {
        let wait = Double(Int64(ledger.latestDue) - Int64(SystemClock.wallClockMicroseconds())) / 1e6
        do {
            try probe.await("ActiveCount 0", timeout: .seconds(max(wait, 0) + 5)) { try probe.activeCount == 0 }
            try probe.await("Visible false", timeout: .seconds(5)) { try !probe.visible }
        } catch let failure as BenchFailure {
            ledger.mismatch("once every client had gone and every deadline passed: \(failure)")
        }
    }

    /// The median of five `Ping` round trips, a mismatch above `limit` when there is one.
    mutating func checkAnswers(limit: Duration?) throws -> Duration {
        let times = try (0..<5).map { _ in try probe.pingTime() }.sorted()
        if let limit, times[2] > limit { ledger.mismatch("the daemon answered in \(times[2]), more than \(limit)") }
        return times[2]
    }
}
