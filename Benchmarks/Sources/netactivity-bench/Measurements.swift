// SPDX-License-Identifier: Apache-2.0
import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness
import Synchronization

/// The benchmark's scenarios, each against the daemon on the benchmark's bus, from connections of its own.
struct Measurements {
    /// The label of every activity the benchmark begins.
    static let label = "bench"

    let bus: PrivateBus
    let daemon: DaemonProcess
    let duration: Duration

    // MARK: Calls

    /// Sequential `GetId` calls answered by dbus-daemon itself: one hop and no service, the yardstick of the run.
    func busDriverRoundTrip() throws -> Latencies {
        let connection = try bus.connect()
        return try repeatUntil(duration) {
            _ = try connection.call(destination: Connection.busDriverName, path: Connection.busDriverPath,
                                    interface: Connection.busDriverInterface, member: "GetId")
        }
    }

    /// Begin then End from one connection, each waiting for its reply: latency of each call, and the daemon's
    /// CPU time per pair. Unless another connection holds an activity meanwhile, every pair shows and hides the
    /// indicator, which sends four signals.
    func sequentialPairs(holdingOne: Bool) throws -> PairFigures {
        let holder = holdingOne ? try RawClient(bus) : nil
        _ = try holder?.begin(Self.label)
        defer { withExtendedLifetime(holder) {} }
        let client = try RawClient(bus)
        let cpuBefore = try daemon.cpuTime
        var pairs = 0
        var samples: [Duration] = []
        samples.reserveCapacity(100_000)
        let started = ContinuousClock.now
        while started.duration(to: .now) < duration {
            let t0 = ContinuousClock.now
            let id = try client.begin(Self.label)
            let t1 = ContinuousClock.now
            try client.end(id)
            samples.append(t0.duration(to: t1))
            samples.append(t1.duration(to: .now))
            pairs += 1
        }
        let elapsed = started.duration(to: .now)
        let cpu = try daemon.cpuTime - cpuBefore
        return PairFigures(calls: Latencies(samples), pairsPerSecond: Double(pairs) / elapsed.seconds,
                           cpuPerPair: cpu / max(pairs, 1))
    }

    /// What a one-call client such as `dbus-send` waits for: the first `Begin` of a new connection, which then
    /// leaves the bus (its activity ends with it). The connection is made before the clock starts.
    func firstCallsOfNewConnections() throws -> Latencies {
        var samples: [Duration] = []
        let started = ContinuousClock.now
        while started.duration(to: .now) < duration {
            let client = try RawClient(bus)
            let t0 = ContinuousClock.now
            _ = try client.begin(Self.label)
            samples.append(t0.duration(to: .now))
        }
        return Latencies(samples)
    }

    struct PairFigures {
        let calls: Latencies
        let pairsPerSecond: Double
        let cpuPerPair: Duration
    }

    /// Begin then End from `connections` connections at once, each on its own thread, which connects before the
    /// clock starts and owns its connection alone.
    func concurrentPairs(connections: Int) throws -> (pairsPerSecond: Double, cpuPerPair: Duration) {
        let run = try concurrently(connections: connections, setUp: { _ in () }) { caller, _ in
            try caller.end(try caller.begin(Self.label))
        }
        return (run.callsPerSecond, run.cpuPerCall)
    }

    /// `connections` threads, each with a connection of its own set up by `setUp`, call `step` as fast as they can
    /// for the measurement's duration, all starting at once: the steps a second and the daemon's CPU per step.
    private func concurrently<State>(
        connections: Int, setUp: @escaping @Sendable (RawClient) throws -> State,
        step: @escaping @Sendable (RawClient, State) throws -> Void
    ) throws -> (callsPerSecond: Double, cpuPerCall: Duration) {
        let total = Mutex((calls: 0, failure: String?.none))
        let connected = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        let startedAt = Mutex(ContinuousClock.now)
        for _ in 0..<connections {
            connected.enter()
            finished.enter()
            let thread = Thread { [bus = bus.address, duration] in
                defer { finished.leave() }
                var calls = 0
                do {
                    let caller = try RawClient(address: bus)
                    let state = try setUp(caller)
                    connected.leave()
                    start.wait()
                    let started = startedAt.withLock { $0 }
                    while started.duration(to: .now) < duration {
                        try step(caller, state)
                        calls += 1
                    }
                } catch {
                    total.withLock { $0.failure = "\(error)" }
                }
                total.withLock { $0.calls += calls }
            }
            thread.start()
        }
        connected.wait()
        let cpuBefore = try daemon.cpuTime
        let started = ContinuousClock.now
        startedAt.withLock { $0 = started }
        for _ in 0..<connections { start.signal() }
        finished.wait()
        let elapsed = started.duration(to: .now)
        let cpu = try daemon.cpuTime - cpuBefore
        let (calls, failure) = total.withLock { ($0.calls, $0.failure) }
        if let failure { throw BenchFailure("a concurrent caller failed: \(failure)") }
        return (Double(calls) / elapsed.seconds, cpu / max(calls, 1))
    }

    /// The sequential pairs with one activity held, while another connection has sent `calls` calls and reads none
    /// of their replies: a stuck client must cost the others nothing.
    func pairsBesideUnreadReplies(calls: Int) throws -> PairFigures {
        let stuck = try bus.connect()
        let probe = try ServiceProbe(bus)
        let begin = ServiceMembers.begin.serviceCall("unread").message
        // The stuck connection never reads, so its replies pile up in the bus.
        for _ in 0..<max(calls - 2, 0) { try stuck.writeWithoutReading(begin.copy()) }
        try stuck.writeWithoutReading(ServiceMembers.cancel.serviceCall().message)
        try stuck.writeWithoutReading(ServiceMembers.begin.serviceCall("unread-last").message)
        // Its last call leaves one activity of that label alone: once it is listed, every call has been handled.
        try probe.await("the unread calls handled", timeout: .seconds(60)) {
            try probe.activities.contains { $0.label == "unread-last" }
        }
        defer { withExtendedLifetime(stuck) {} }
        return try sequentialPairs(holdingOne: true)
    }

    // MARK: Signals

    /// From sending the Begin (End) that makes the count 1 (0) until `VisibilityChanged(true)` (`false`)
    /// reaches a separate listening connection.
    func signalLatency(cycles: Int) throws -> (on: Latencies, off: Latencies) {
        let listener = try SignalListener(bus)
        let client = try RawClient(bus)
        var on: [Duration] = []
        var off: [Duration] = []
        for _ in 0..<cycles {
            let begun = ContinuousClock.now
            let begin = client.send(ServiceMembers.begin.serviceCall(Self.label))
            try listener.awaitVisibility(true, timeout: .seconds(30))
            on.append(begun.duration(to: .now))
            var reply = try client.awaitReply(to: begin)
            let activity = try ServiceMembers.begin.readReply(&reply)
            let ended = ContinuousClock.now
            let end = client.send(ServiceMembers.end.serviceCall(activity))
            try listener.awaitVisibility(false, timeout: .seconds(30))
            off.append(ended.duration(to: .now))
            _ = try client.awaitReply(to: end)
        }
        return (Latencies(on), Latencies(off))
    }

    /// A connection begins `activities` activities and closes: the time until the listener sees
    /// `VisibilityChanged(false)`, which needs the bus's `NameOwnerChanged` and the end of every one of them.
    func cleanupLatency(activities: Int, repetitions: Int) throws -> Latencies {
        let listener = try SignalListener(bus)
        var samples: [Duration] = []
        for _ in 0..<repetitions {
            var client: RawClient? = try RawClient(bus)
            for _ in 0..<activities { _ = try client?.begin(Self.label) }
            try listener.awaitVisibility(true, timeout: .seconds(30))
            let closed = ContinuousClock.now
            client = nil
            try listener.awaitVisibility(false, timeout: .seconds(30))
            samples.append(closed.duration(to: .now))
        }
        return Latencies(samples)
    }

    // MARK: Progress

    /// `connections` connections each holding one activity and calling `SetProgress` on it as fast as they can,
    /// each waiting for its answer, while a listener counts `ActivitiesChanged`: calls a second, the daemon's CPU per
    /// call, and the signals a second that all of it caused.
    func progressReports(connections: Int) throws -> (callsPerSecond: Double, cpuPerCall: Duration, signalsPerSecond: Double) {
        let listener = try SignalListener(bus)
        try listener.settle()
        let started = ContinuousClock.now
        let run = try concurrently(connections: connections, setUp: { caller in try caller.begin(Self.label) }) {
            caller, id in
            _ = try caller.call(ServiceMembers.setProgress.serviceCall(id, UInt32.random(in: 0...100)))
        }
        let elapsed = started.duration(to: .now)
        try listener.settle()
        let signals = listener.history.count { ServiceMembers.activitiesChanged.matches($0) }
        return (run.callsPerSecond, run.cpuPerCall, Double(signals) / elapsed.seconds)
    }

    /// `GetActivities` while `count` activities of ten connections are held: its round trip (the benchmark's own
    /// decoding of the reply included) and the daemon's CPU per call. They are gone, and the indicator hidden, when
    /// it returns.
    func getActivities(held count: Int) throws -> (calls: Latencies, cpuPerCall: Duration) {
        let listener = try SignalListener(bus)
        var holders = try (0..<10).map { _ in try RawClient(bus) }
        for index in 0..<count { _ = try holders[index % holders.count].begin(Self.label) }
        let reader = try RawClient(bus)
        var made = 0
        let cpuBefore = try daemon.cpuTime
        let calls = try repeatUntil(duration) {
            let listed = try reader.details()
            guard listed.count == count else { throw BenchFailure("GetActivities gave \(listed.count) of \(count)") }
            made += 1
        }
        let cpu = try daemon.cpuTime - cpuBefore
        holders.removeAll()
        try listener.awaitVisibility(false, timeout: .seconds(30))
        return (calls, cpu / max(made, 1))
    }

    // MARK: Load

    /// `clients` connections each holding `perClient` activities: the daemon's memory while they are held and
    /// after they left, the sequential pairs measured meanwhile, and how long it takes them all to be cleaned up.
    func heldActivities(clients: Int, perClient: Int) throws -> HeldFigures {
        let listener = try SignalListener(bus)
        var holders: [RawClient] = []
        for _ in 0..<clients {
            let holder = try RawClient(bus)
            for _ in 0..<perClient { _ = try holder.begin(Self.label) }
            holders.append(holder)
        }
        try listener.awaitVisibility(true, timeout: .seconds(30))
        let held = try daemon.residentKiB
        let underLoad = try sequentialPairs(holdingOne: false)
        let closed = ContinuousClock.now
        holders.removeAll()
        try listener.awaitVisibility(false, timeout: .seconds(30))
        let teardown = closed.duration(to: .now)
        return HeldFigures(residentKiB: held, pairs: underLoad, teardown: teardown, residentAfterKiB: try daemon.residentKiB)
    }

    struct HeldFigures {
        let residentKiB: Int
        let pairs: PairFigures
        let teardown: Duration
        let residentAfterKiB: Int
    }

    private func repeatUntil(_ duration: Duration, _ body: () throws -> Void) throws -> Latencies {
        var samples: [Duration] = []
        let started = ContinuousClock.now
        while started.duration(to: .now) < duration {
            let t0 = ContinuousClock.now
            try body()
            samples.append(t0.duration(to: .now))
        }
        return Latencies(samples, elapsed: started.duration(to: .now))
    }
}

/// Percentiles of a set of samples (nearest rank) and, when they ran back to back, their rate.
struct Latencies {
    let sorted: [Duration]
    let perSecond: Double?

    init(_ samples: [Duration], elapsed: Duration? = nil) {
        sorted = samples.sorted()
        perSecond = elapsed.map { Double(samples.count) / $0.seconds }
    }

    func percentile(_ p: Double) -> Duration {
        guard !sorted.isEmpty else { return .zero }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    var p50: Duration { percentile(50) }
    var p99: Duration { percentile(99) }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    var microseconds: Double { seconds * 1e6 }
}
