import DBusKit
import ProgramSupport
@testable import NetworkActivityClient
import ServiceHarness
import Synchronization
import Testing

extension Integration {
    /// The connection the library's clients are built on, on its own: its timeouts and the loss of the bus.
    @Suite("A connection that tasks share")
    struct SharedConnectionTests {
        @Test func sharedCallsEndAsNoReplyEachAtItsOwnTimeout() async throws {
            let bus = try PrivateBus()
            let silent = try bus.connect()
            #expect(try silent.requestName("org.example.Silent", flags: .doNotQueue) == .primaryOwner)
            let shared = try SharedConnection(bus: .address(bus.address))
            // The later deadline is awaited first, so that the earlier one must bring the timer forward: then the
            // short call ends first, whatever the machine's speed, and each waited at least its own timeout.
            let ended = Lock<[String]>([])
            async let long = failedCall(on: shared, timeout: .seconds(5)) { ended.withLock { $0.append("long") } }
            try #require(try await askArrives(at: silent))
            async let short = failedCall(on: shared, timeout: .milliseconds(300)) {
                ended.withLock { $0.append("short") }
            }
            let (shortName, shortWaited) = await short
            let (longName, longWaited) = await long
            #expect(shortName == .noReply && longName == .noReply)
            #expect(shortWaited >= .milliseconds(300))
            #expect(longWaited >= .seconds(5))
            #expect(ended.withLock { $0 } == ["short", "long"])
        }

        @Test func aSharedCallAwaitedWhenTheBusGoesEndsAsDisconnectedAndSoDoesEveryLaterCall() async throws {
            let bus = try PrivateBus()
            let silent = try bus.connect()
            #expect(try silent.requestName("org.example.Silent", flags: .doNotQueue) == .primaryOwner)
            let shared = try SharedConnection(bus: .address(bus.address))
            async let awaited = failedCall(on: shared, timeout: .seconds(60))
            try #require(try await askArrives(at: silent))
            bus.kill()
            // A call left waiting would end with NoReply, after its timeout.
            let (name, _) = await awaited
            #expect(name == .disconnected)
            let (laterName, _) = await failedCall(on: shared, timeout: .seconds(60))
            #expect(laterName == .disconnected)
            #expect(!shared.isOpen)
        }

        /// Replies that come before their task has finished suspending reach it through the call's lock, which
        /// ThreadSanitizer sees; handed over by the concurrency runtime alone, it reported a race on the reply
        /// (docs/testing.md, "Sanitizers"). Many short calls from tasks at once make that moment common.
        @Test func manyTasksCallingAtOnceEachReadTheirOwnReply() async throws {
            let bus = try PrivateBus()
            let shared = try SharedConnection(bus: .address(bus.address))
            let name = shared.uniqueName
            let answered = try await withThrowingTaskGroup(of: Int.self, returning: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        for _ in 0..<250 {
                            let ask = Message.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                         interface: "org.freedesktop.DBus", member: "GetNameOwner")
                            ask.append(name)
                            var reply = try await shared.call(ask, timeout: .seconds(30)).arguments()
                            let owner = try reply.read(String.self)
                            #expect(owner == name)
                        }
                        return 250
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(answered == 1000)
        }

        /// A call that a task sends while the loop's thread is reading (here, a stream of signals from a peer)
        /// is left queued by libdbus, which cannot take the socket then, and asks the loop to wake and write it
        /// (`dbus_connection_set_wakeup_main_function`). A loop that did not wake left such calls unsent until
        /// their timeout: one `netactivity limits` in CI waited its 25 s and failed with `NoReply`.
        @Test func callsSentWhileTheLoopReadsAreWrittenAtOnce() async throws {
            let bus = try PrivateBus()
            let shared = try SharedConnection(bus: .address(bus.address))
            let destination = try BusName(shared.uniqueName)
            let flooding = Atomic(true)
            // Used by that thread alone until it returns.
            nonisolated(unsafe) let peer = try bus.connect()
            // As fast as the bus takes them, so that the loop is reading most of the time. Under a sanitizer the
            // loop falls behind, and each reply waits behind the signals before it, but for well under a minute:
            // a call left unsent waits out its timeout.
            async let flood: Void = onThreadOfItsOwn {
                var sent = 0
                while flooding.load(ordering: .acquiring) {
                    _ = peer.send(Message.signal(path: "/", interface: "org.example.Flood", member: "Tick",
                                                 destination: destination))
                    sent += 1
                    if sent % 64 == 0 { peer.flush() }
                }
                peer.flush()
            }
            var late = 0
            for _ in 0..<Self.calls {
                let ask = Message.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                             interface: "org.freedesktop.DBus", member: "GetId")
                do {
                    _ = try await shared.call(ask, timeout: .seconds(60))
                } catch {
                    late += 1
                }
            }
            flooding.store(false, ordering: .releasing)
            try await flood
            #expect(late == 0, "\(late) of \(Self.calls) calls got no reply within 60 s")
        }

        /// Calls enough that, without the wake-up, one or more was left unsent in every run tried (two to five of
        /// 2000).
        static let calls = 2_000

        /// Found by AddressSanitizer's leak check (docs/testing.md, "Sanitizers"): a stream's end, after the bus
        /// went away, handed its cleanup to a loop that no longer ran, and the job held the connection, which held
        /// the job, so the connection, its loop and its buffers were never freed.
        @Test(.timeLimit(.minutes(1)))
        func aClientWhoseBusWentAwayIsFreedWithWhatItsStreamsHeld() async throws {
            let bus = try PrivateBus()
            var client: NetworkActivityClient? = try NetworkActivityClient(address: bus.address)
            weak let shared = client?.connection
            let states = try #require(client).indicatorStates()
            var iterator = states.makeAsyncIterator()
            #expect(await iterator.next() == .serviceStopped)
            bus.kill()
            while await iterator.next() != nil {}
            client = nil
            // The loop's thread lets go of its references as it ends: nothing tells when, so it is awaited.
            let deadline = ContinuousClock.now + .seconds(20)
            while shared != nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(shared == nil, "the connection is still held after the bus went away and the client was dropped")
        }
    }
}

/// Calls the silent peer's `Ask` through `shared`; the name of the error it ended with (nil if it was answered)
/// and how long it took.
private func failedCall(
    on shared: SharedConnection, timeout: Duration, onEnd: @Sendable () -> Void = {}
) async -> (ErrorName?, Duration) {
    defer { onEnd() }
    let ask = Message.methodCall(destination: "org.example.Silent", path: "/", interface: "org.example.Q",
                                 member: "Ask")
    let sent = ContinuousClock.now
    do {
        _ = try await shared.call(ask, timeout: timeout)
        return (nil, sent.duration(to: .now))
    } catch {
        guard case .bus(let error) = error else { return (nil, sent.duration(to: .now)) }
        return (error.name, sent.duration(to: .now))
    }
}

/// Whether a call of `Ask` reaches `peer` within ten seconds, read on a thread of its own so that the caller's task
/// goes on meanwhile.
private func askArrives(at peer: Connection) async throws -> Bool {
    // Used by that thread alone until it returns.
    nonisolated(unsafe) let reading = peer
    return try await onThreadOfItsOwn { try reading.awaitCall("Ask") != nil }
}
