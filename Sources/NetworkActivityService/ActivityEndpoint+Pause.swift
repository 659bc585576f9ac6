// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity
import NetworkActivityInterface

/// Where `Pause` and `Resume` hold an app's packets back: the system service's kernel programs
/// (`TrafficSource`).
protocol TrafficPausing: AnyObject {
    /// Holds back (`paused`) or lets through the packets of the app whose measured traffic is the `traffic`
    /// source's `item`; throws when the kernel refuses.
    func setPaused(_ paused: Bool, item: String) throws(DBusError)
}

/// A session's way to pause an app that the system service measures: it sends the call on, as the session's user.
protocol PauseForwarding: AnyObject {
    /// Asks the system service; `answer` is called on the loop with its reply. False when it is not running.
    func forward(paused: Bool, id: UInt32, answer: @escaping (Result<Void, DBusError>) -> Void) -> Bool
}

extension ActivityEndpoint {
    /// `Pause` (`paused`) and `Resume` of activity `id`: an app's measured traffic, which its slice's user and
    /// root may pause (`AccessRules.mayPause`); to anyone else it is unknown, as to those who may not see it.
    func setPaused(_ paused: Bool, id: ActivityID, for call: Message) throws(DBusError) -> MethodAnswer<NoValue> {
        let unknown = ActivityError.unknownActivity(id).dbusError
        if coordinator.tracker[id] != nil { throw ActivityError.notPausable(id).dbusError }
        if let activity = coordinator.sourceActivity(id) {
            let caller = callers.unixUser(of: call.callerName)
            let privateTo = activity.report.privateTo
            guard AccessRules.maySee(privateTo: privateTo, reader: caller, serviceUser: ownUser) else { throw unknown }
            guard activity.report.isPaused != nil, let trafficPausing else { throw ActivityError.notPausable(id).dbusError }
            guard AccessRules.mayPause(privateTo: privateTo, caller: caller) else { throw unknown }
            try trafficPausing.setPaused(paused, item: activity.item)
            return .now(NoValue())
        }
        guard let row = system.row(id) else { throw unknown }
        guard row.isPaused != nil else { throw ActivityError.notPausable(id).dbusError }
        guard let pauseForwarding, pauseForwarding.forward(paused: paused, id: id.rawValue, answer: { [weak object] result in
            switch result {
            case .success: object?.answer(call, with: NoValue())
            case .failure(let error): object?.answer(call, failing: error)
            }
        }) else { throw unknown }
        return .later
    }
}
