import DBusKit
import Foundation
import ServiceHarness
import Testing

/// Who may use a connection, and how long a reply is waited for: a loop's connection stays on the loop's thread,
/// a blocking connection is shared, and no reply handler waits for ever.
@Suite("Connection ownership and reply timeouts")
struct ConnectionOwnershipTests {
    /// Held by a reply handler, to see when the handler is released.
    final class Witness {}

    @Test func aReplyThatNeverComesEndsAsNoReplyAndReleasesItsHandler() throws {
        let bus = try PrivateBus()
        let silent = try bus.connect()
        #expect(try silent.requestName("org.example.Silent", flags: .doNotQueue) == .primaryOwner)
        let caller = try bus.connect()
        let loop = EventLoop(connection: caller)
        var outcome: Result<MessageReader, DBusError>?
        weak var released: Witness?
        // Read before the call is sent, whose deadline counts from the sending: read after, a moment would be lost.
        let sent = ContinuousClock.now
        do {
            let witness = Witness()
            released = witness
            let call = Message.methodCall(destination: "org.example.Silent", path: "/", interface: "org.example.Q",
                                          member: "Ask")
            caller.send(call, timeout: .milliseconds(200)) { [unowned loop] result in
                withExtendedLifetime(witness) { outcome = result }
                loop.stop()
            }
        }
        let deadline = sent + .seconds(10)
        loop.endOfTurn = { [unowned loop] in
            if ContinuousClock.now >= deadline { loop.stop() }
            return ContinuousClock.now.duration(to: deadline)
        }
        try loop.run()
        let waited = sent.duration(to: .now)
        guard case .failure(let error) = try #require(outcome) else {
            Issue.record("the silent peer's call succeeded")
            return
        }
        #expect(error.name == .noReply)
        #expect(waited >= .milliseconds(200), "NoReply before the call's timeout")
        #expect(released == nil, "the handler is still held after its timeout")
        withExtendedLifetime(silent) {}
    }

    @Test func aReplyInTimeReachesItsHandlerOnceAndReleasesIt() throws {
        let bus = try PrivateBus()
        let caller = try bus.connect()
        let loop = EventLoop(connection: caller)
        var answers: [String] = []
        weak var released: Witness?
        do {
            let witness = Witness()
            released = witness
            let call = Message.methodCall(destination: Connection.busDriverName, path: Connection.busDriverPath,
                                          interface: Connection.busDriverInterface, member: "GetNameOwner")
            call.append(Connection.busDriverName.rawValue)
            caller.send(call, timeout: .milliseconds(300)) { result in
                withExtendedLifetime(witness) {
                    var reply = try? result.get()
                    answers.append((try? reply?.read(String.self)) ?? "error")
                }
            }
        }
        // Past the call's timeout, so that a second delivery (as NoReply) would be seen.
        let deadline = ContinuousClock.now + .milliseconds(600)
        loop.endOfTurn = { [unowned loop] in
            if ContinuousClock.now >= deadline { loop.stop() }
            return ContinuousClock.now.duration(to: deadline)
        }
        try loop.run()
        #expect(answers == [Connection.busDriverName.rawValue])
        #expect(released == nil)
    }

    /// libdbus's own blocking calls to the bus (`RequestName`, `ReleaseName`, `AddMatch`) read into the queue what
    /// arrives before their reply; at the end of a turn (a tray joining or leaving its tray there), the loop must
    /// dispatch that before it sleeps, or a signal waits for the next byte on the socket.
    @Test(arguments: ["RequestName", "ReleaseName", "AddMatch"])
    func whatABusCallAtTheEndOfATurnQueuedIsDispatchedBeforeTheLoopSleeps(call: String) throws {
        let bus = try PrivateBus()
        let listener = try bus.connect()
        let peer = try bus.connect()
        let loop = EventLoop(connection: listener)
        // The loop has nothing else to wake it: a signal left in the queue would be dispatched only when it woke
        // for the test's deadline.
        var heardBeforeTheDeadline: Bool?
        let deadline = ContinuousClock.now + .seconds(30)
        try listener.subscribe(to: MatchRule(interface: "org.example.Q", member: "Said")) { [unowned loop] _ in
            heardBeforeTheDeadline = ContinuousClock.now < deadline
            loop.stop()
        }
        let listenerName = try BusName(listener.uniqueName)
        var isSent = false
        loop.endOfTurn = { [unowned loop] in
            if !isSent {
                isSent = true
                peer.send(Message.signal(path: "/", interface: "org.example.Q", member: "Said",
                                         destination: listenerName))
                // Answered after the bus has routed the signal: it is on its way to the listener before the reply
                // to the listener's call below, which reads it into the queue.
                _ = try? peer.nameOwner(of: Connection.busDriverName)
                switch call {
                case "RequestName": _ = try? listener.requestName("org.example.Listener", flags: .doNotQueue)
                case "ReleaseName": try? listener.releaseName("org.example.Listener")
                default: try? listener.addMatch(MatchRule(interface: "org.example.Other"))
                }
            }
            if ContinuousClock.now >= deadline { loop.stop() }
            return ContinuousClock.now.duration(to: deadline)
        }
        try loop.run()
        #expect(heardBeforeTheDeadline == true, "the signal stayed in the queue while the loop slept")
    }

    #if DEBUG
    @Test func usingALoopsConnectionOffItsThreadStopsADebugBuild() async throws {
        let bus = try PrivateBus()
        await #expect(processExitsWith: .failure) { [address = bus.address as String] in
            let connection = try Connection(bus: .address(address))
            let loop = EventLoop(connection: connection)
            loop.endOfTurn = { [unowned loop] in
                loop.stop()
                return nil
            }
            try loop.run()
            // The compiler refuses to share the connection; this is what the check is for when a program insists.
            nonisolated(unsafe) let offThread = connection
            let done = DispatchSemaphore(value: 0)
            Thread {
                offThread.flush()
                done.signal()
            }.start()
            done.wait()
        }
        // The same use on the loop's own thread is fine.
        let connection = try bus.connect()
        let loop = EventLoop(connection: connection)
        loop.endOfTurn = { [unowned loop] in
            loop.stop()
            return nil
        }
        try loop.run()
        connection.flush()
    }
    #endif
}
