// SPDX-License-Identifier: Apache-2.0
internal import DBusKit
internal import NetworkActivityInterface

/// The service's calls as the library makes them, each defined once: the async client (`NetworkActivityClient`)
/// and the blocking one (`BlockingActivityCalls`) run the same definitions, each waiting its own way.
extension ServiceCall where Reply == ActivityID {
    /// `BeginWithTimeout` when `seconds` is given, `Begin` otherwise; replies with the new activity's id.
    static func begin(_ label: String, seconds: UInt32?) throws(NetworkActivityError) -> ServiceCall {
        // A D-Bus string ends at its first NUL, so the service would be sent a shorter label than the one given;
        // it refuses every other control character itself.
        guard !label.utf8.contains(0) else { throw .invalidLabel("the label contains the control character U+0") }
        let call = if let seconds {
            ServiceMembers.beginWithTimeout.serviceCall(label, seconds)
        } else {
            ServiceMembers.begin.serviceCall(label)
        }
        return call.map(ActivityID.init(rawValue:))
    }
}

extension ServiceCall where Reply == NoValue {
    static func end(_ id: ActivityID) -> ServiceCall {
        ServiceMembers.end.serviceCall(id.rawValue)
    }

    static func setProgress(_ id: ActivityID, percent: UInt32) -> ServiceCall {
        ServiceMembers.setProgress.serviceCall(id.rawValue, percent)
    }

    /// `SetTransfer`, with 0 for a total that is not known, as the interface has it.
    static func setTransfer(_ id: ActivityID, done: UInt64, total: UInt64?) -> ServiceCall {
        ServiceMembers.setTransfer.serviceCall(id.rawValue, done, total ?? 0)
    }

    /// Makes the caller the one asked to stop `id`.
    static func setCancellable(_ id: ActivityID) -> ServiceCall {
        ServiceMembers.setCancellable.serviceCall(id.rawValue, true)
    }

    static func requestCancel(_ id: ActivityID) -> ServiceCall {
        ServiceMembers.requestCancel.serviceCall(id.rawValue)
    }

    /// `Pause` (`paused`) or `Resume`.
    static func setPaused(_ id: ActivityID, _ paused: Bool) -> ServiceCall {
        (paused ? PauseMembers.pause : PauseMembers.resume).serviceCall(id.rawValue)
    }

}

extension ServiceCall where Reply == [ActivityStatus] {
    /// `GetActivities`, each record as the library gives it.
    static var activities: ServiceCall {
        ServiceMembers.getActivities.serviceCall().map { $0.map(ActivityStatus.init) }
    }
}
