import DBusKit
import Foundation
import NetworkActivityClient
import NetworkActivityInterface
import ServiceHarness
import Synchronization
import Testing

extension Integration {
    @Suite("The NetworkActivityClient library")
    struct ClientLibraryTests {
        let bus: PrivateBus
        let service: DaemonProcess

        init() throws {
            bus = try PrivateBus()
            service = try DaemonProcess(bus: bus)
        }

        func client(timeout: Duration = .seconds(5)) throws -> NetworkActivityClient {
            try NetworkActivityClient(address: bus.address, timeout: timeout)
        }

        @Test func aTokenEndsItsActivityWhenEndedAndEndingTwiceDoesNothing() async throws {
            let client = try client()
            let activity = try await client.begin("upload")
            let status = try await client.status()
            #expect(status.activities.map(\.id) == [activity.id])
            #expect(status.activities.first?.label == "upload")
            #expect(status.activities.first?.processID == UInt32(getpid()))
            #expect(status.activities.first?.application == ownCommandName())
            try await activity.end()
            try await activity.end()
            #expect(try await client.status().activeCount == 0)
        }

        /// A D-Bus string ends at NUL: such a label would reach the service cut short, so the library refuses it.
        @Test func aLabelWithNULIsRefusedBeforeItIsSent() async throws {
            let client = try client()
            for label in ["a\u{0}b", "\u{0}"] {
                await #expect { _ = try await client.begin(label) } throws: { isInvalidLabel($0) }
                await #expect { _ = try await client.beginTimed(label, seconds: 60) } throws: { isInvalidLabel($0) }
            }
            #expect(try await client.status().activeCount == 0)
        }

        @Test func releasingTheTokenEndsTheActivity() async throws {
            let client = try client()
            let kept = try await client.begin("kept")
            do {
                let released = try await client.begin("released")
                #expect(try await client.status().activeCount == 2, "\(released.id)")
            }
            #expect(try await client.status().activities.map(\.label) == ["kept"])
            _ = kept
        }

        @Test func aDetachedTimedActivityOutlivesItsTokenAndAnotherClientEndsIt() async throws {
            var first: NetworkActivityClient? = try client()
            let id: ActivityID = try await #require(first).beginTimed("handed over", seconds: 60).detach()
            first = nil
            let second = try client()
            let listed = try await second.status().activities
            #expect(listed.map(\.id) == [id])
            #expect(listed.first?.deadline != nil)
            try await second.end(id)
            await #expect { try await second.end(id) } throws: { error in
                guard case .unknownActivity = error as? NetworkActivityError else { return false }
                return true
            }
        }

        @Test func anActivityIDReadsAndWritesAsItsNumber() throws {
            let id = ActivityID(rawValue: 41)
            #expect(id.description == "41" && ActivityID("41") == id && ActivityID("x") == nil)
            #expect(String(decoding: try JSONEncoder().encode([id]), as: UTF8.self) == "[41]")
            #expect(try JSONDecoder().decode([ActivityID].self, from: Data("[41]".utf8)) == [id])
        }

        @Test func aScopeEndsItsOwnActivitiesOnCancelAndWhatIsLeftWhenReleased() async throws {
            let client = try client()
            let outside = try await client.begin("outside")
            var scope: ActivityScope? = ActivityScope(client: client)
            try await scope?.begin("screen 1")
            try await scope?.beginTimed("screen 2", seconds: 60)
            #expect(try await client.status().activeCount == 3, "dropping the tokens a scope returns ends nothing")
            #expect(scope?.cancel() == 2)
            #expect(try await client.status().activities.map(\.label) == ["outside"])

            let ended = try await #require(scope).begin("ended early")
            let leftOver = try await #require(scope).begin("left over")
            try await ended.end()
            #expect(scope?.count == 1)
            scope = nil
            #expect(try await client.status().activities.map(\.label) == ["outside"], "even with \(leftOver.id) held")
            await #expect(throws: Never.self) { try await leftOver.end() }
            try await outside.end()
        }

        @Test func cancelAllEndsEveryActivityOfTheClientAndNoOneElses() async throws {
            let client = try client()
            let other = try RawClient(bus)
            _ = try other.begin("other's")
            let token = try await client.begin("a")
            _ = try await client.beginTimed("b", seconds: 60).detach()
            #expect(try await client.cancelAll() == 2)
            #expect(try await client.status().activities.map(\.label) == ["other's"])
            await #expect(throws: NetworkActivityError.self) { try await token.end() }
        }

        @Test func withNetworkActivityEndsTheActivityWhenTheBodyReturns() async throws {
            let client = try client()
            let seen = try await client.withNetworkActivity("sync") {
                try await client.status().activities.map(\.label)
            }
            #expect(seen == ["sync"])
            #expect(try await client.status().activeCount == 0)
        }

        @Test func withNetworkActivityEndsTheActivityWhenTheBodyThrows() async throws {
            let client = try client()
            struct Failed: Error {}
            await #expect(throws: Failed.self) {
                try await client.withNetworkActivity("sync") {
                    #expect(try await client.status().activeCount == 1)
                    throw Failed()
                }
            }
            #expect(try await client.status().activeCount == 0)
        }

        @Test func withNetworkActivityEndsTheActivityWhenTheTaskIsCancelled() async throws {
            let client = try client()
            let (started, didStart) = AsyncStream.makeStream(of: Void.self)
            let task = Task {
                try await client.withNetworkActivity("long") {
                    didStart.yield()
                    try await Task.sleep(for: .seconds(60))
                }
            }
            var iterator = started.makeAsyncIterator()
            await iterator.next()
            #expect(try await client.status().activities.map(\.label) == ["long"])
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(try await client.status().activeCount == 0)
        }

        @Test func withNetworkActivityRunsTheBodyWithoutTheServiceUnlessStrict() async throws {
            let bus = try PrivateBus()  // without the service
            let client = try NetworkActivityClient(address: bus.address)
            let ran = try await client.withNetworkActivity("work") { true }
            #expect(ran)
            let error = await #expect(throws: NetworkActivityError.self) {
                try await client.withNetworkActivity("work", strict: true) {
                    Issue.record("the body ran")
                }
            }
            #expect(error?.name == ErrorName.serviceUnknown.rawValue)
        }

        /// 100 tasks begin and end at once on one client, each call suspending rather than holding a thread; a
        /// listener on the bus sees the count reach 100 and come back to 0.
        @Test func aHundredTasksShareOneClient() async throws {
            let client = try client()
            let listener = try SignalListener(bus)
            let gate = Gate()
            let ids = try await withThrowingTaskGroup(of: ActivityID.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        let activity = try await client.begin("task \(index)")
                        await gate.pass()
                        try await activity.end()
                        return activity.id
                    }
                }
                try Integration.awaitActiveCount(100, listener)
                await gate.open()
                return try await group.reduce(into: Set<ActivityID>()) { $0.insert($1) }
            }
            #expect(ids.count == 100)
            try Integration.awaitActiveCount(0, listener)
            #expect(try await client.status().activeCount == 0)
        }

        /// A `begin` whose task is cancelled while the service has not answered throws `cancelled` at once; when
        /// the answer comes anyway, the client ends that activity. Played by a service that answers when told.
        @Test func aBeginCancelledInFlightLeavesNoActivityBehind() async throws {
            let bus = try PrivateBus()
            let slow = try Connection(bus: .address(bus.address))
            #expect(try slow.requestName(ServiceNames.busName, flags: .doNotQueue) == .primaryOwner)
            let client = try NetworkActivityClient(address: bus.address)

            let task = Task { try await client.begin("late") }
            let call = try #require(try slow.awaitCall(ServiceMembers.begin.name.rawValue))
            task.cancel()
            await #expect { _ = try await task.value } throws: { error in
                guard case .cancelled = error as? NetworkActivityError else { return false }
                return true
            }
            slow.send(call.makeReturn(with: UInt32(7)))
            let end = try #require(try slow.awaitCall(ServiceMembers.end.name.rawValue))
            var arguments = end.arguments()
            #expect(try arguments.read(UInt32.self) == 7)
        }

        /// The same against the real service, cancelling 50 begins at every moment of their flight.
        @Test func cancelledBeginsNeverLeaveActivitiesBehind() async throws {
            let client = try client()
            for delay in 0..<50 {
                let task = Task { try await client.begin("maybe \(delay)") }
                if delay > 0 { try await Task.sleep(for: .microseconds(delay * 10)) }
                task.cancel()
                _ = try? await task.value
            }
            // Replies come in order, and the `End` of a late one is sent before the next reply is read.
            #expect(try await client.status().activities.isEmpty)
        }

        @Test(.timeLimit(.minutes(1)))
        func indicatorStatesFollowTheServiceAcrossStopsKillsAndRestartsAndLeaveNoThread() async throws {
            let bus = try PrivateBus()
            var daemon: DaemonProcess? = try DaemonProcess(bus: bus)
            var client: NetworkActivityClient? = try NetworkActivityClient(address: bus.address)
            let user = try RawClient(bus)
            let (seen, record) = AsyncStream.makeStream(of: IndicatorState.self, bufferingPolicy: .unbounded)
            let following = try #require(client).indicatorStates()
            let consumer = Task {
                for await state in following { record.yield(state) }
                record.finish()
            }
            var states = seen.makeAsyncIterator()
            // Properties and activities come from different signals: a change may pass through a state with one of
            // them new and the other not yet. Each step awaits the state it leads to.
            func first(where wanted: (IndicatorState) -> Bool) async throws -> IndicatorState {
                while true {
                    let state = try #require(await states.next(), "the stream ended")
                    if wanted(state) { return state }
                }
            }

            #expect(try await first { _ in true } == IndicatorState(isServiceRunning: true, isVisible: false,
                                                                   activeCount: 0, activities: []))
            _ = try user.begin("mail")
            var state = try await first { $0.isVisible && !$0.activities.isEmpty }
            #expect(state.labels == ["mail"] && state.activeCount == 1)
            daemon?.send(SIGTERM)
            _ = daemon?.exitStatus()
            _ = try await first { $0 == .serviceStopped }

            daemon = try DaemonProcess(bus: bus)
            state = try await first { $0.isServiceRunning }
            #expect(!state.isVisible && state.activities.isEmpty)
            let again = try RawClient(bus)
            _ = try again.begin("backup")
            state = try await first { $0.isVisible && !$0.activities.isEmpty }
            #expect(state.labels == ["backup"])
            let id = state.activities[0].id.rawValue
            _ = try again.call(ServiceMembers.setProgress.name) { $0.append(id); $0.append(UInt32(45)) }
            state = try await first { $0.activities.first?.percent != nil }
            #expect(state.activities.first?.percent == 45, "progress comes with ActivitiesChanged")
            daemon?.send(SIGKILL)
            _ = daemon?.exitStatus()
            _ = try await first { $0 == .serviceStopped }
            daemon = try DaemonProcess(bus: bus)
            _ = try await first { $0.isServiceRunning }

            consumer.cancel()
            await consumer.value
            #expect(await states.next() == nil, "the stream finishes with its consumer")
            #expect(loopThreads() == 1, "the client's own, while it lives")
            _ = (user, again)
            client = nil
            try await awaitNoLoopThread()
        }

        /// The bus answers for a missing service (`ServiceUnknown`); a call left to wait would end as `noReply`
        /// after the client's 30 s instead.
        @Test func withoutTheServiceEveryCallThrowsAtOnce() async throws {
            let bus = try PrivateBus()  // without the service
            let client = try NetworkActivityClient(address: bus.address, timeout: .seconds(30))
            let isServiceUnknown = { (error: any Error) -> Bool in
                guard case .serviceUnavailable(let name, _) = error as? NetworkActivityError else { return false }
                return name == ErrorName.serviceUnknown.rawValue
            }
            await #expect(performing: { _ = try await client.begin("x") }, throws: isServiceUnknown)
            await #expect(performing: { _ = try await client.status() }, throws: isServiceUnknown)
        }

        @Test func aServiceThatDoesNotAnswerGivesNoReplyWithinTheTimeoutAndTheClientGoesOn() async throws {
            let bus = try PrivateBus()
            var silent: Connection? = try Connection(bus: .address(bus.address))
            #expect(try silent?.requestName(ServiceNames.busName, flags: .doNotQueue) == .primaryOwner)
            let client = try NetworkActivityClient(address: bus.address, timeout: .milliseconds(300))
            let started = ContinuousClock.now
            await #expect { _ = try await client.begin("x") } throws: { error in
                guard case .noReply = error as? NetworkActivityError else { return false }
                return true
            }
            #expect(ContinuousClock.now - started >= .milliseconds(300), "not before the client's timeout")

            silent = nil
            let service = try DaemonProcess(bus: bus)
            let activity = try await client.begin("after")
            #expect(try await client.status().activities.map(\.label) == ["after"])
            _ = (service, activity)
        }

        /// Each refusal of the real service, and of the bus, arrives as its own case.
        @Test func everyErrorHasItsCase() async throws {
            let limited = try PrivateBus()
            let limitedService = try DaemonProcess(bus: limited, arguments: DaemonProcess.noDelays
                                                   + ["--max-per-caller", "1"])
            let client = try NetworkActivityClient(address: limited.address, timeout: .seconds(2))
            let other = try RawClient(limited)
            let othersID = ActivityID(rawValue: try other.begin("other's"))

            func expectCase(_ matches: (NetworkActivityError) -> Bool,
                            _ call: () async throws(NetworkActivityError) -> Void) async {
                do throws(NetworkActivityError) {
                    try await call()
                    Issue.record("no error")
                } catch {
                    #expect(matches(error), "\(error)")
                }
            }
            await expectCase({ if case .unknownActivity = $0 { true } else { false } }) { () async throws(NetworkActivityError) in
                try await client.end(ActivityID(rawValue: 999))
            }
            await expectCase({ if case .notOwner = $0 { true } else { false } }) { () async throws(NetworkActivityError) in
                try await client.end(othersID)
            }
            let held = try await client.begin("one")
            await expectCase({ if case .limitExceeded = $0 { true } else { false } }) { () async throws(NetworkActivityError) in
                _ = try await client.begin("two")
            }
            try await held.end()
            await expectCase({ if case .invalidLabel = $0 { true } else { false } }) { () async throws(NetworkActivityError) in
                _ = try await client.begin(String(repeating: "x", count: 300))
            }
            await expectCase({ if case .invalidArguments = $0 { true } else { false } }) { () async throws(NetworkActivityError) in
                _ = try await client.beginTimed("zero", seconds: 0)
            }
            let cancelled = await Task { () async -> NetworkActivityError? in
                withUnsafeCurrentTask { $0?.cancel() }
                do throws(NetworkActivityError) {
                    _ = try await client.begin("cancelled")
                    return nil
                } catch {
                    return error
                }
            }.value
            #expect(cancelled == .cancelled)

            // What only a peer can be made to say: the service played by a connection with set answers.
            let played = try PrivateBus()
            let peer = try FakePeer(played, owning: ServiceNames.busName, answers: [
                ServiceMembers.reset.name.rawValue: { $0.makeErrorReply(DBusError(.accessDenied, "only root may")) },
                ServiceMembers.cancel.name.rawValue: { $0.makeErrorReply(DBusError(.failed, "something else")) },
            ])
            let playedClient = try NetworkActivityClient(address: played.address)
            let resetting = Task { () async -> NetworkActivityError? in
                do throws(NetworkActivityError) { _ = try await playedClient.reset() } catch { return error }
                return nil
            }
            try peer.awaitCall(ServiceMembers.reset.name.rawValue)
            #expect(await resetting.value == .accessDenied(message: "only root may"))
            let cancelling = Task { () async -> NetworkActivityError? in
                do throws(NetworkActivityError) { _ = try await playedClient.cancelAll() } catch { return error }
                return nil
            }
            try peer.awaitCall(ServiceMembers.cancel.name.rawValue)
            #expect(await cancelling.value == .other(name: ErrorName.failed.rawValue, message: "something else"))

            limited.kill()
            await expectCase({ if case .disconnected = $0 { true } else { false } }) { () async throws(NetworkActivityError) in
                _ = try await client.status()
            }
            _ = limitedService
        }

        @Test func withoutABusTheClientCannotBeMade() throws {
            let directory = try temporaryDirectory("no-bus")
            defer { try? FileManager.default.removeItem(at: directory) }
            #expect {
                try NetworkActivityClient(address: "unix:path=\(directory.path)/socket")
            } throws: { error in
                guard case .serviceUnavailable = error as? NetworkActivityError else { return false }
                return true
            }
        }
    }
}

private func isInvalidLabel(_ error: any Error) -> Bool {
    guard case .invalidLabel = error as? NetworkActivityError else { return false }
    return true
}

/// How many threads of shared connections this process has (their name in `/proc/self/task/*/comm`).
private func loopThreads() -> Int {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.filter { task in
        (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?.hasPrefix("dbus-shared") == true
    }.count
}

/// Waits, up to ten seconds, until no shared connection's thread is left: a thread ends a moment after it is told.
private func awaitNoLoopThread() async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while loopThreads() > 0 {
        guard ContinuousClock.now < deadline else { throw TestFailure("\(loopThreads()) loop threads are left") }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// Holds tasks at `pass()` until `open()`.
private actor Gate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func pass() async {
        guard !isOpen else { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting.removeAll()
    }
}
