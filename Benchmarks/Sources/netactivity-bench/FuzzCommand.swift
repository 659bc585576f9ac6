// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness

/// Sends the daemon random and malformed calls from several connections and checks every answer, and the
/// state after every step, against a model (docs/reliability.md).
struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Sends netactivityd random and malformed calls and checks every answer against a model.",
        discussion: """
            Starts a dbus-daemon and a netactivityd (delays 0) of its own. Each step, one of --connections \
            connections sends one to three random calls: to the service's path and others, with its interfaces, \
            others and none, known and unknown members, right and wrong signatures, valid and invalid values \
            (empty, long and huge labels, control characters, ids 0 and 2^32-1, timeouts out of range), some \
            asking for no reply; then a Ping, whose answer shows that every earlier call has been answered. Every \
            call that asks for a reply must get exactly one, as the model predicts: a reply it accepts, or one of \
            the error names it expects. After every step the daemon must be running and ActiveCount must equal \
            the model's count; every 20 steps the whole list is compared. Now and then a connection closes and \
            another opens. Exits 1 at the first difference, printing the seed and the call.
            """)

    @Option(help: ArgumentHelp("The netactivityd to test (default: the release build's).", valueName: "path"))
    var daemon: String?

    @Option(help: "Seconds to run (at most 3000: the timeouts it begins are longer).") var seconds: Double = 10
    @Option(help: "Stop after this many steps instead, whatever the time: the same seed then makes the same run.")
    var steps: Int?
    @Option(help: "Connections calling in turn.") var connections = 4
    @Option(help: "The seed of every random choice; the same seed makes the same calls.") var seed: UInt64 = 1
    @Flag(help: "Print the figures as JSON.") var json = false

    func validate() throws {
        guard seconds > 0, seconds <= 3000 else { throw ValidationError("--seconds takes 0 to 3000.") }
        guard connections >= 1, connections <= 100 else { throw ValidationError("--connections takes 1 to 100.") }
        if let steps, steps < 1 { throw ValidationError("--steps takes a positive number.") }
    }

    func run() throws {
        let bus = try PrivateBus()
        let service = try DaemonProcess(bus: bus, executable: try DaemonExecutable.find(daemon))
        var fuzzer = Fuzzer(bus: bus, probe: try ServiceProbe(bus), seed: seed,
                            connections: try (0..<connections).map { _ in try bus.connect() })
        let end = ContinuousClock.now + .seconds(seconds)
        var failure: String?
        func goesOn() -> Bool { steps.map { fuzzer.steps < $0 } ?? (ContinuousClock.now < end) }
        while goesOn(), failure == nil {
            failure = try fuzzer.step()
            if failure == nil, !service.process.isRunning { failure = "the daemon is not running" }
        }
        if failure == nil { failure = try fuzzer.compareLists() }
        let figures: [String: Int] = [
            "steps": fuzzer.steps, "calls": fuzzer.calls, "errors": fuzzer.errors, "no_reply_calls": fuzzer.unanswered,
            "reconnections": fuzzer.reconnections, "live_at_end": fuzzer.model.count, "failures": failure == nil ? 0 : 1,
        ]
        if json {
            print(String(decoding: try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys]),
                         as: UTF8.self))
        } else {
            print("netactivity-bench fuzz: seed \(seed), \(seconds) s, \(connections) connections")
            for (key, value) in figures.sorted(by: { $0.key < $1.key }) {
                print("\(key.padding(toLength: 20, withPad: " ", startingAt: 0)) \(value)")
            }
        }
        if let failure {
            FileHandle.standardError.write(Data("fuzz failure (seed \(seed), step \(fuzzer.steps)): \(failure)\n".utf8))
            throw ExitCode(1)
        }
    }
}

/// The fuzzing connections, the model, and the step that drives them.
struct Fuzzer {
    let bus: PrivateBus
    let probe: ServiceProbe
    var connections: [Connection]
    private(set) var model = FuzzModel()
    private var maker: FuzzCallMaker
    private var random: SeededGenerator
    private(set) var steps = 0
    private(set) var calls = 0
    private(set) var errors = 0
    private(set) var unanswered = 0
    private(set) var reconnections = 0

    init(bus: PrivateBus, probe: ServiceProbe, seed: UInt64, connections: [Connection]) {
        self.bus = bus
        self.probe = probe
        self.connections = connections
        maker = FuzzCallMaker(random: SeededGenerator(seed: seed, part: 1))
        random = SeededGenerator(seed: seed, part: 2)
    }

    /// One step; returns what went wrong, if anything.
    mutating func step() throws -> String? {
        steps += 1
        if random.chance(0.01) { try reconnect(Int.random(in: 0..<connections.count, using: &random)) }
        let connection = connections.randomElement(using: &random)!
        let caller = connection.uniqueName
        var batch: [(call: FuzzCall, serial: UInt32)] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let call = maker.call(ids: model.ids, nextID: model.absentID)
            batch.append((call, connection.send(call.message)))
            // An activity begun without a reply has an id the model learns only from the next listing.
            if !call.expectsReply { break }
        }
        calls += batch.count
        let replies = try repliesUpToPing(on: connection)
        var unexpected = Set(replies.keys)
        for (call, serial) in batch {
            let reply = replies[serial]
            unexpected.remove(serial)
            if !call.expectsReply {
                unanswered += 1
                // libdbus answers Peer calls itself, before the service sees them, and ignores the flag.
                if reply != nil, call.interface != StandardInterface.peer {
                    return "a reply came to a call that asked for none: \(call)"
                }
            } else if reply == nil {
                return "no reply to \(call)"
            }
            if let problem = check(call, reply: reply, caller: caller) { return "\(problem): \(call)" }
        }
        if !unexpected.isEmpty { return "\(unexpected.count) replies to calls never made" }
        if !model.unresolved.isEmpty || steps % 20 == 0 { if let problem = try compareLists() { return problem } }
        let count = try probe.activeCount
        return Int(count) == model.count ? nil : "ActiveCount is \(count), the model has \(model.count)"
    }

    private mutating func check(_ call: FuzzCall, reply: Message?, caller: String) -> String? {
        let prediction = model.predict(call, caller: caller)
        if let error = reply?.error {
            errors += 1
            switch prediction {
            case .failure(let names), .successOrFailure(let names):
                return names.contains(error.name) ? nil : "got \(error), expected one of \(names.map(\.rawValue))"
            case .success:
                return "got \(error), expected success"
            }
        }
        switch prediction {
        case .success(let effect): return model.apply(effect, caller: caller, reply: reply)
        case .successOrFailure: return nil
        case .failure(let names):
            // Without a reply, a refused call must simply have changed nothing, which the next check shows.
            return reply == nil ? nil : "succeeded, expected one of \(names.map(\.rawValue))"
        }
    }

    /// Sends a Ping after the batch and collects every reply until the Ping's: the service answers one
    /// connection's calls in order, so all replies to the batch have come by then.
    private func repliesUpToPing(on connection: Connection) throws -> [UInt32: Message] {
        let ping = connection.send(StandardInterface.ping.serviceCall().message)
        var replies: [UInt32: Message] = [:]
        let deadline = ContinuousClock.now + .seconds(10)
        while let message = try connection.nextMessage(timeout: ContinuousClock.now.duration(to: deadline)) {
            guard message.type == .methodReturn || message.type == .error else { continue }
            if message.replySerial == ping { return replies }
            if replies[message.replySerial] != nil { throw BenchFailure("two replies to serial \(message.replySerial)") }
            replies[message.replySerial] = message
        }
        throw BenchFailure("the service did not answer a Ping within 10 s")
    }

    mutating func compareLists() throws -> String? {
        try model.difference(from: probe.activities) ?? model.difference(from: probe.details)
    }

    /// Closes a connection and opens another; its bound activities end once the service sees it go.
    private mutating func reconnect(_ index: Int) throws {
        let name = connections[index].uniqueName
        connections[index] = try bus.connect()
        reconnections += 1
        model.callerLeft(name)
        // Its activities end, and those it would have stopped are no longer cancellable.
        try probe.await("the activities of \(name) reclaimed", timeout: .seconds(10)) {
            try Int(probe.activeCount) == model.count && model.difference(from: probe.details) == nil
        }
    }
}
