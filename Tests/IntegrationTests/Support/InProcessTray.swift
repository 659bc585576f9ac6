import NetworkActivityInterface
import DBusKit
import DesktopIndicator
import Dispatch
import Foundation
import NetworkActivityClient
import ProgramSupport
import ServiceHarness
import TestSupport
@testable import netactivity_tray

/// netactivity-tray's `ActivityTray` in the test's own process, on a private bus and a loop thread of its own, with a
/// clock that moves only when the test moves it: the tray's timers (its minimum stay, the time hosts are given to
/// read a change, the identity it says again, the notice of long activities) are checked without waiting for them.
/// The test hands it states as the library would (`show`), and runs its timers when it has moved the clock.
final class InProcessTray: Sendable {
    let clock = TestClock()
    /// The well-known name the item owns while it is in the tray.
    let itemName = "org.kde.StatusNotifierItem-\(getpid())-1"
    /// The tray's connection's unique name, which serves its objects in and out of the tray.
    let uniqueName: String
    private let jobs = LoopJobs()
    private let ended = DispatchSemaphore(value: 0)

    init(_ bus: PrivateBus, idleMode: IdleMode = .hide, notifyAfter: Duration? = nil) throws {
        let (jobs, clock, ended, address) = (jobs, clock, ended, bus.address)
        let started = Outcome<Result<String, TestFailure>>()
        Thread {
            defer { ended.signal() }
            do {
                let connection = try Connection(bus: .address(address))
                let tray = try ActivityTray(connection: connection, idleMode: idleMode,
                                            notifyAfter: notifyAfter, clock: clock, logger: Logger(label: "tray"))
                let loop = EventLoop(connection: connection)
                LoopBound.current = LoopBound(tray: tray, loop: loop)
                defer { LoopBound.current = nil }
                loop.watch(fileDescriptor: jobs.fileDescriptor) { jobs.runQueued() }
                loop.endOfTurn = { tray.fireDueTimers() }
                started.set(.success(connection.uniqueName))
                try loop.run()
            } catch {
                started.set(.failure(TestFailure("the tray did not start: \(error)")))
            }
        }.start()
        uniqueName = try started.await("the tray to start").get()
    }

    deinit {
        jobs.post { LoopBound.current?.loop.stop() }
        _ = ended.wait(timeout: .now() + 10)
    }

    /// Shows `state`, as the library hands each state to the tray.
    func show(_ state: IndicatorState) throws {
        try onLoop { $0.show(state) }
    }

    /// Moves the clock on by `duration` and runs the timers that fell due; returns how long until the next.
    @discardableResult
    func advance(by duration: Duration) throws -> Duration? {
        clock.advance(by: duration)
        return try onLoop { $0.fireDueTimers() }
    }

    /// Runs `body` on the tray's loop thread with the tray, and waits for it.
    private func onLoop<Result: Sendable>(_ body: @escaping @Sendable (ActivityTray) -> Result) throws -> Result {
        let outcome = Outcome<Result>()
        jobs.post { outcome.set(body(LoopBound.current!.tray)) }
        return try outcome.await("the tray's loop to run a job")
    }

    /// An activity, as the library reports it, begun `age` before the clock's time.
    func activity(_ id: UInt32, _ label: String, age: Duration = .zero, percent: UInt32? = nil, done: UInt64? = nil)
        -> ActivityStatus
    {
        ActivityStatus(ActivityDetails(id: id, label: label, owner: ":1.1",
                                       startedAt: clock.wallClock - UInt64(age.wholeMicroseconds), user: 1000,
                                       percent: percent, done: done))
    }

    /// The state while `activities` are active (none: idle), the indicator showing while any are.
    static func state(_ activities: [ActivityStatus]) -> IndicatorState {
        IndicatorState(isServiceRunning: true, isVisible: !activities.isEmpty, activeCount: UInt32(activities.count),
                       activities: activities)
    }
}

/// What lives on the tray's loop thread, reached from the jobs that run there.
private final class LoopBound {
    /// Set and read on the loop's thread only; the integration suites run one test at a time, so one tray at a time.
    nonisolated(unsafe) static var current: LoopBound?
    let tray: ActivityTray
    let loop: EventLoop

    init(tray: ActivityTray, loop: EventLoop) {
        self.tray = tray
        self.loop = loop
    }
}

/// A value one thread hands another, awaited with a deadline.
private final class Outcome<Value: Sendable>: Sendable {
    private let value = Lock<Value?>(nil)
    private let arrived = DispatchSemaphore(value: 0)

    func set(_ newValue: Value) {
        value.withLock { $0 = newValue }
        arrived.signal()
    }

    func await(_ what: String, timeout: Duration = .seconds(10)) throws -> Value {
        guard arrived.wait(timeout: .now() + .milliseconds(Int(timeout.wholeMicroseconds / 1000))) == .success,
              let result = value.withLock({ $0 }) else {
            throw TestFailure("waited \(timeout) for \(what)")
        }
        return result
    }
}
