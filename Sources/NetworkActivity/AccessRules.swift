// SPDX-License-Identifier: Apache-2.0
/// Who may do what to whose activities: the service's access rules, in one place. An activity's user is its
/// creator's for a timed one, its owner's for a bound one; `userOf` asks the bus who is behind a connection (nil
/// when it cannot tell), only when a rule needs it.
public enum AccessRules {
    /// `End`: a bound activity only by the connection that began it; a timed one also by any connection of its
    /// user, since it outlives the command that began it.
    static func mayEnd(isOwner: Bool, timedUser: UInt32?, callerUser: () -> UInt32?) -> Bool {
        guard !isOwner, let timedUser else { return isOwner }
        return callerUser() == timedUser
    }

    /// `SetProgress`, `SetTransfer`: any connection of the activity's user, so that a child of the program that
    /// began it can report.
    static func mayReport(on activity: TrackedActivity, caller: String, userOf: (String) -> UInt32?) -> Bool {
        isOfActivitysUser(caller, activity, userOf: userOf)
    }

    /// `SetCancellable`: for a bound activity its owner alone; for a timed one any connection of its user.
    static func mayChooseWhoStops(_ activity: TrackedActivity, caller: String,
                                  userOf: (String) -> UInt32?) -> Bool {
        activity.isBoundToOwner ? activity.owner == caller : isOfActivitysUser(caller, activity, userOf: userOf)
    }

    /// `RequestCancel`: any connection of the activity's user, root, and the service's own user.
    static func mayAskToStop(_ activity: TrackedActivity, caller: String, serviceUser: UInt32,
                             userOf: (String) -> UInt32?) -> Bool {
        isOfActivitysUser(caller, activity, userOf: userOf) || isAdministrator(userOf(caller), serviceUser: serviceUser)
    }

    /// `Pause` and `Resume` of an app's network: the user in whose slice it runs (`privateTo`), and root; the
    /// machine's services (in no user's slice) root alone. Not the service's own user: holding back an app's
    /// packets is more than seeing them.
    public static func mayPause(privateTo: UInt32?, caller: UInt32?) -> Bool {
        guard let caller else { return false }
        return caller == 0 || caller == privateTo
    }

    /// `Reset`, which ends everyone's: root and the service's own user. (The system bus's policy already refuses
    /// it to all but root; this is the second line, for a policy that is missing or wrong.)
    public static func mayReset(callerUser: UInt32?, serviceUser: UInt32) -> Bool {
        isAdministrator(callerUser, serviceUser: serviceUser)
    }

    /// `GetHistory`: whose entries `reader` reads: root everyone's (nil), anyone else their own. `ClearHistory`
    /// forgets the caller's own user's alone.
    public static func historyReadable(by reader: UInt32) -> UInt32? {
        reader == 0 ? nil : reader
    }

    /// Whether a connection of Unix user `reader` (nil: the bus did not tell) may learn that work private to
    /// `privateTo` exists (`SourceReport.privateTo`): that user, root and the service's own user. To anyone else
    /// it does not exist: it is in no count, no broadcast signal, no list, and its id is `UnknownActivity`.
    public static func maySee(privateTo: UInt32?, reader: UInt32?, serviceUser: UInt32) -> Bool {
        guard let privateTo else { return true }
        return reader == privateTo || isAdministrator(reader, serviceUser: serviceUser)
    }

    /// What a sandboxed app (a Flatpak app, known as xdg-desktop-portal knows one) asks that reaches past its own
    /// activities. It may begin, end, report on, stop and read its own activities, and follow the indicator; what
    /// belongs to the user or to the user's other apps stays the user's, whatever its `--talk-name` lets it call.
    public enum SandboxedRequest: Sendable {
        case readUsage, clearUsage, pauseOrResume, limit, plan, readHistory, clearHistory, reset, stopAnother
        /// Any call of an interface that is the user's as a whole (a session passes it on to the system service).
        case usersInterface(String)
    }

    /// Why a sandboxed app may not ask `request`, in words for its developer: the message of its refusal.
    public static func refusal(ofSandboxed request: SandboxedRequest) -> String {
        switch request {
        case .readUsage: "reads every app's data usage, per network"
        case .clearUsage: "clears every app's data usage"
        case .pauseOrResume: "holds back or lets through another app's network"
        case .limit: "reads or sets the speed limits of the user's apps"
        case .plan: "reads or sets the machine's data plans"
        case .readHistory: "reads what every app of the user did"
        case .clearHistory: "clears what every app of the user did"
        case .reset: "ends every activity"
        case .stopAnother: "asks another app's activity to stop"
        case .usersInterface(let interface): "calls \(interface), which is the user's"
        }
    }

    private static func isAdministrator(_ user: UInt32?, serviceUser: UInt32) -> Bool {
        user.map { $0 == 0 || $0 == serviceUser } ?? false
    }

    /// Whether `caller` is the activity's owner or another connection of its Unix user.
    private static func isOfActivitysUser(_ caller: String, _ activity: TrackedActivity,
                                          userOf: (String) -> UInt32?) -> Bool {
        if activity.owner == caller { return true }
        guard let activityUser = activity.expiry?.creatorUser ?? userOf(activity.owner),
              let callerUser = userOf(caller) else { return false }
        return activityUser == callerUser
    }
}
