import NetworkActivityInterface
import DBusKit
import Foundation
import NetworkActivityClient
import ServiceHarness
import Testing

extension Integration {
    @Suite("The library's progress and cancellation")
    struct ClientProgressTests {
        let bus: PrivateBus
        let service: DaemonProcess

        init() throws {
            bus = try PrivateBus()
            service = try DaemonProcess(bus: bus)
        }

        @Test func aTokenReportsProgressThatActivitiesShows() async throws {
            let client = try NetworkActivityClient(address: bus.address)
            let activity = try await client.begin("download")
            try await activity.setTransfer(done: 512, total: 2048)
            var listed = try #require(try await client.activities().first)
            #expect(listed.id == activity.id && listed.percent == 25 && listed.done == 512 && listed.total == 2048)
            #expect(listed.processID == UInt32(getpid()) && listed.user == getuid() && !listed.isCancellable)
            try await activity.setProgress(90)
            listed = try #require(try await client.activities().first)
            #expect(listed.percent == 90)
            await #expect(throws: NetworkActivityError.self) { try await activity.setProgress(101) }
            await #expect(throws: NetworkActivityError.notCancellable(
                message: "nobody has said that activity \(activity.id) can be stopped")) {
                try await client.requestCancel(activity.id)
            }
            try await activity.end()
        }

        @Test func aCancelRequestCancelsTheBodyOfWithNetworkActivity() async throws {
            let client = try NetworkActivityClient(address: bus.address)
            let asker = try NetworkActivityClient(address: bus.address)
            let (started, start) = AsyncStream.makeStream(of: ActivityID.self)
            let work = Task {
                try await client.withNetworkActivity("sync") {
                    let id = try #require(try await client.activities().first?.id)
                    start.yield(id)
                    // Work that goes on until its task is cancelled, as URLSession's and the like do.
                    while !Task.isCancelled { await Task.yield() }
                    return Task.isCancelled
                }
            }
            var ids = started.makeAsyncIterator()
            let id = try #require(await ids.next())
            let listed = try #require(try await asker.activities().first)
            #expect(listed.isCancellable, "cancellable by default")
            try await asker.requestCancel(id)
            #expect(try await work.value == true, "the body saw Task.isCancelled")
            #expect(try await asker.activities().isEmpty, "the activity ended when the body returned")
        }

        @Test func withNetworkActivityCanBeLeftNotCancellable() async throws {
            let client = try NetworkActivityClient(address: bus.address)
            try await client.withNetworkActivity("quiet", cancellable: false) {
                let listed = try #require(try await client.activities().first)
                #expect(!listed.isCancellable)
            }
        }

        @Test func activityUpdatesStartWithTheCurrentOnesAndFollowAcrossARestart() async throws {
            let bus = try PrivateBus()
            var daemon: DaemonProcess? = try DaemonProcess(bus: bus)
            let client = try NetworkActivityClient(address: bus.address)
            let owner = try RawClient(bus)
            let first = try owner.begin("first")
            let (seen, record) = AsyncStream.makeStream(of: ActivityUpdate.self, bufferingPolicy: .unbounded)
            let following = client.activityUpdates()
            let consumer = Task {
                for await update in following { record.yield(update) }
                record.finish()
            }
            var updates = seen.makeAsyncIterator()
            /// The ids the updates said changed, since the last `awaitActivities` returned.
            var changedOnTheWay: [UInt32] = []
            /// The next update whose activities are `labels` (with `percent` for the first), skipping earlier ones.
            func awaitActivities(_ labels: [String], percent: UInt32? = nil) async throws -> ActivityUpdate {
                changedOnTheWay = []
                while let update = await updates.next() {
                    changedOnTheWay += update.changed.map(\.id.rawValue)
                    if update.activities.map(\.label) == labels, update.activities.first?.percent == percent {
                        return update
                    }
                }
                throw TestFailure("the updates ended before \(labels)")
            }

            let initial = try await awaitActivities(["first"])
            #expect(initial.changed.map(\.id.rawValue) == [first])
            let second = try owner.begin("second")
            _ = try owner.call(ServiceMembers.setProgress.name) { $0.append(first); $0.append(UInt32(60)) }
            try owner.end(second)
            // The progress may come in the same update as the second's end or in one before it, with the second
            // still there: which, the service's pacing decides.
            _ = try await awaitActivities(["first"], percent: 60)
            #expect(changedOnTheWay.contains(first))

            daemon?.send(SIGKILL)
            _ = daemon?.exitStatus()
            let stopped = try await awaitActivities([])
            #expect(stopped.ended.map(\.rawValue) == [first])
            daemon = try DaemonProcess(bus: bus)
            let again = try RawClient(bus)
            _ = try again.begin("after the restart")
            _ = try await awaitActivities(["after the restart"])
            consumer.cancel()
            await consumer.value
            _ = (daemon, again)
        }
    }
}
