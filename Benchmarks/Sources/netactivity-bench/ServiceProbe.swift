// SPDX-License-Identifier: Apache-2.0
import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness

/// A watching connection that reads everything the service sends it in order: each question is answered only
/// after every signal the service sent before its answer has been seen (`RawClient.observer`). So the last
/// `VisibilityChanged` it saw can be compared with `Visible` exactly, with no settling time.
final class ServiceProbe {
    let client: RawClient
    /// The value of the last `VisibilityChanged` seen, nil before the first.
    private(set) var lastVisibilitySignal: Bool?
    /// How many `VisibilityChanged(true)` and `(false)` have been seen.
    private(set) var visibilitySignals = (shown: 0, hidden: 0)

    init(_ bus: PrivateBus) throws {
        client = try RawClient(bus)
        try client.connection.addMatch(ServiceMembers.visibilityChanged.rule(sender: ServiceNames.busName,
                                                                             path: ServiceNames.objectPath))
        client.observer = { [unowned self] message in note(message) }
    }

    /// The service was killed and started again: a widget goes by what the new instance says.
    func serviceRestarted() {
        lastVisibilitySignal = nil
    }

    /// Reads the signals that have arrived, waiting up to `timeout` for the first.
    func takeSignals(waiting timeout: Duration) throws {
        var wait = timeout
        while let message = try client.connection.nextMessage(timeout: wait) {
            note(message)
            wait = .zero
        }
    }

    /// Waits until `condition` holds, checking it again whenever a signal arrives and at least every 50 ms.
    func await(_ what: String, timeout: Duration, until condition: () throws -> Bool) throws {
        let deadline = ContinuousClock.now + timeout
        while try !condition() {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw BenchFailure("\(what) did not happen within \(timeout)") }
            try takeSignals(waiting: min(left, .milliseconds(50)))
        }
    }

    private func note(_ message: Message) {
        guard let visible = visibility(of: message) else { return }
        lastVisibilitySignal = visible
        if visible { visibilitySignals.shown += 1 } else { visibilitySignals.hidden += 1 }
    }

    // MARK: The service's state

    var activeCount: UInt32 { get throws { try client.activeCount } }
    var visible: Bool { get throws { try client.visible } }
    var activities: [ActivityRecord] { get throws { try client.list() } }
    var details: [ActivityDetails] { get throws { try client.details() } }

    /// The time the service takes to answer `Peer.Ping`, which libdbus answers on the service's own loop.
    func pingTime() throws -> Duration {
        let started = ContinuousClock.now
        _ = try client.call(StandardInterface.ping.serviceCall())
        return started.duration(to: .now)
    }
}
