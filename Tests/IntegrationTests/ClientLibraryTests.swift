import DBusKit
import Foundation
import ServiceHarness
import NetworkActivityClient
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

        @Test func aTokenEndsItsActivityWhenEndedAndEndingTwiceDoesNothing() throws {
            let client = try NetworkActivityClient(bus: .address(bus.address))
            let activity = try client.begin(label: "upload")
            let status = try client.status()
            #expect(status.activities.map(\.id) == [activity.id])
            #expect(status.activities.first?.label == "upload")
            #expect(status.activities.first?.ownerProcessID == UInt32(getpid()))
            #expect(status.activities.first?.ownerCommand == ownCommandName())
            try activity.end()
            try activity.end()
            #expect(try client.status().activeCount == 0)
        }

        /// A D-Bus string ends at NUL: such a label would reach the service cut short, so the library refuses it.
        @Test func aLabelWithNULIsRefusedBeforeItIsSent() throws {
            let client = try NetworkActivityClient(bus: .address(bus.address))
            for label in ["a\u{0}b", "\u{0}"] {
                #expect {
                    _ = try client.begin(label: label)
                } throws: { ($0 as? DBusError)?.name == .invalidArgs }
                #expect {
                    _ = try client.beginTimed(label: label, seconds: 60)
                } throws: { ($0 as? DBusError)?.name == .invalidArgs }
            }
            #expect(try client.status().activeCount == 0)
        }

        @Test func releasingTheTokenEndsTheActivity() throws {
            let client = try NetworkActivityClient(bus: .address(bus.address))
            let kept = try client.begin(label: "kept")
            do {
                let released = try client.begin(label: "released")
                #expect(try client.status().activeCount == 2, "\(released.id)")
            }
            #expect(try client.status().activities.map(\.label) == ["kept"])
            _ = kept
        }

        @Test func aDetachedTimedActivityOutlivesItsTokenAndAnotherClientEndsIt() throws {
            var first: NetworkActivityClient? = try NetworkActivityClient(bus: .address(bus.address))
            let id = try #require(first).beginTimed(label: "handed over", seconds: 60).detach()
            first = nil
            let second = try NetworkActivityClient(bus: .address(bus.address))
            let listed = try second.status().activities
            #expect(listed.map(\.id) == [id])
            #expect(listed.first?.deadline != nil)
            try second.end(id: id)
            #expect(throws: NetworkActivityError.self) { try second.end(id: id) }
        }

        @Test func aScopeEndsItsOwnActivitiesOnCancelAndWhatIsLeftWhenReleased() throws {
            let client = try NetworkActivityClient(bus: .address(bus.address))
            let outside = try client.begin(label: "outside")
            var scope: ActivityScope? = ActivityScope(client: client)
            try scope?.begin(label: "screen 1")
            try scope?.beginTimed(label: "screen 2", seconds: 60)
            #expect(try client.status().activeCount == 3, "dropping the tokens a scope returns ends nothing")
            #expect(scope?.cancel() == 2)
            #expect(try client.status().activities.map(\.label) == ["outside"])

            let ended = try #require(scope).begin(label: "ended early")
            let leftOver = try #require(scope).begin(label: "left over")
            try ended.end()
            #expect(scope?.count == 1)
            scope = nil
            #expect(try client.status().activities.map(\.label) == ["outside"], "even with \(leftOver.id) held")
            #expect(throws: Never.self) { try leftOver.end() }
            try outside.end()
        }

        @Test func cancelAllEndsEveryActivityOfTheClientAndNoOneElses() throws {
            let client = try NetworkActivityClient(bus: .address(bus.address))
            let other = try RawClient(bus)
            _ = try other.begin("other's")
            let token = try client.begin(label: "a")
            _ = try client.beginTimed(label: "b", seconds: 60).detach()
            #expect(try client.cancelAll() == 2)
            #expect(try client.status().activities.map(\.label) == ["other's"])
            #expect(throws: NetworkActivityError.self) { try token.end() }
        }

        @Test func withNetworkActivityEndsTheActivityWhenTheBodyReturns() async throws {
            let client = try NetworkActivityClient(bus: .address(bus.address))
            let seen = try await client.withNetworkActivity(label: "sync") {
                try client.status().activities.map(\.label)
            }
            #expect(seen == ["sync"])
            #expect(try client.status().activeCount == 0)
        }

        @Test func withNetworkActivityEndsTheActivityWhenTheBodyThrows() async throws {
            let client = try NetworkActivityClient(bus: .address(bus.address))
            struct Failed: Error {}
            await #expect(throws: Failed.self) {
                try await client.withNetworkActivity(label: "sync") {
                    #expect(try client.status().activeCount == 1)
                    throw Failed()
                }
            }
            #expect(try client.status().activeCount == 0)
        }

        @Test func withNetworkActivityEndsTheActivityWhenTheTaskIsCancelled() async throws {
            let client = try NetworkActivityClient(bus: .address(bus.address))
            let (started, didStart) = AsyncStream.makeStream(of: Void.self)
            let task = Task {
                try await client.withNetworkActivity(label: "long") {
                    didStart.yield()
                    try await Task.sleep(for: .seconds(60))
                }
            }
            var iterator = started.makeAsyncIterator()
            await iterator.next()
            #expect(try client.status().activities.map(\.label) == ["long"])
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(try client.status().activeCount == 0)
        }

        @Test func withNetworkActivityRunsTheBodyWithoutTheServiceUnlessStrict() async throws {
            let bus = try PrivateBus()  // without the service
            let client = try NetworkActivityClient(bus: .address(bus.address))
            let ran = try await client.withNetworkActivity(label: "work") { true }
            #expect(ran)
            let error = await #expect(throws: NetworkActivityError.self) {
                try await client.withNetworkActivity(label: "work", strict: true) {
                    Issue.record("the body ran")
                }
            }
            #expect(error?.name == .serviceUnknown)
        }

        @Test func tokensMayBeUsedFromManyThreadsAtOnce() throws {
            let client = try NetworkActivityClient(bus: .address(bus.address))
            let ids = Mutex<[UInt32]>([])
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                for _ in 0..<50 {
                    do {
                        let activity = try client.begin(label: "parallel")
                        ids.withLock { $0.append(activity.id) }
                        if activity.id % 2 == 0 { try activity.end() }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty)
            #expect(Set(ids.withLock { $0 }).count == 400)
            #expect(try client.status().activeCount == 0)
        }

        @Test func withoutTheServiceEveryCallThrowsAtOnce() throws {
            let bus = try PrivateBus()  // without the service
            let client = try NetworkActivityClient(bus: .address(bus.address), timeout: .seconds(30))
            let started = ContinuousClock.now
            let error = #expect(throws: NetworkActivityError.self) { try client.begin(label: "x") }
            #expect(error?.name == .serviceUnknown)
            #expect(throws: NetworkActivityError.self) { try client.status() }
            #expect(ContinuousClock.now - started < .seconds(10), "the bus answers for a missing service")
        }

        @Test func aServiceThatDoesNotAnswerGivesNoReplyWithinTheTimeout() throws {
            let bus = try PrivateBus()  // without the service
            let silent = try Connection(bus: .address(bus.address))
            #expect(try silent.requestName(busName, flags: .doNotQueue) == .primaryOwner)
            let client = try NetworkActivityClient(bus: .address(bus.address), timeout: .milliseconds(300))
            let started = ContinuousClock.now
            let error = #expect(throws: NetworkActivityError.self) { try client.begin(label: "x") }
            #expect(error?.name == .noReply)
            #expect(ContinuousClock.now - started < .seconds(10))
        }

        @Test func withoutABusTheClientCannotBeMade() throws {
            let directory = try temporaryDirectory("no-bus")
            defer { try? FileManager.default.removeItem(at: directory) }
            #expect(throws: NetworkActivityError.self) {
                try NetworkActivityClient(bus: .address("unix:path=\(directory.path)/socket"))
            }
        }
    }
}
