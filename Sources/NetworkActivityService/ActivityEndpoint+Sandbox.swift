// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity
import NetworkActivityInterface

/// A sandboxed caller (a Flatpak app, `CallerDirectory.Caller.sandbox`) reaches its own activities and the
/// indicator alone, whatever its `--talk-name` lets it call: what is the user's or another app's is refused by
/// name (`AccessRules.SandboxedRequest`), and what it reads is its own.
extension ActivityEndpoint {
    /// Refuses `request` to a sandboxed caller (`CallerDirectory.refuseIfSandboxed`).
    func refuseIfSandboxed(_ caller: String, _ request: AccessRules.SandboxedRequest) throws(DBusError) {
        try callers.refuseIfSandboxed(caller, request)
    }

    /// Whether `caller` runs in a sandbox.
    func isSandboxed(_ caller: String) -> Bool {
        callers.sandbox(of: caller) != nil
    }

    /// A sandboxed caller's own activities, as `GetActivities` gives them: those of its app's connections on the
    /// bus (a timed one whose connection has left is the user's alone to read).
    func ownDetails(of caller: String) -> [ActivityDetails] {
        let app = callers.sandbox(of: caller)
        return coordinator.tracker.all.filter { activity in
            activity.owner == caller || (app != nil && callers.asked(activity.owner)?.sandbox == app)
        }.map(details(of:))
    }
}
