// SPDX-License-Identifier: Apache-2.0
public import NetworkActivityInterface

/// A rule that holds an app to a speed, or lets it go on past a used-up data plan (`GetLimits`): every instance
/// of it, now and whenever it runs again.
public struct AppSpeedLimit: Sendable, Hashable {
    /// The rule as the service gave it; `netactivity limits --json` writes its keys.
    public let record: LimitRecord

    public init(_ record: LimitRecord) {
        self.record = record
    }

    /// The app id, as `status` shows it.
    public var application: String { record.application }
    /// Bytes a second received, at most; nil for no limit.
    public var down: UInt64? { record.down }
    /// Bytes a second sent, at most; nil for no limit.
    public var up: UInt64? { record.up }
    /// Whether the app goes on where a network's data plan is used up.
    public var exemptFromPlans: Bool { record.exemptFromPlans }
    /// What the app does on a metered network: "pause", "allow" or bytes a second in decimal; nil for what the
    /// data saver says.
    public var onMetered: String? { record.onMetered }
}

extension NetworkActivityClient {
    /// This program's user's speed limits (root's: the machine's services'), by app id (`GetLimits`). Throws
    /// `NotCountingTraffic` where the system service does not count apps' traffic.
    public func limits() async throws(NetworkActivityError) -> [AppSpeedLimit] {
        try await call(LimitsMembers.getLimits.serviceCall()).map(AppSpeedLimit.init)
    }

    /// Holds every instance of `application` of this program's user to `down` and `up` bytes a second
    /// (`SetLimit`): a way given as nil stays as it was, 0 lifts its limit; `exemptFromPlans`, when given, lets
    /// the app go on past a used-up data plan (true) or stops it there as every other app (false); `onMetered`,
    /// when given, is what it does on a metered network: "pause", "allow", bytes a second in decimal, or "none"
    /// for what the data saver says.
    public func setLimit(of application: String, down: UInt64?, up: UInt64?, exemptFromPlans: Bool? = nil,
                         onMetered: String? = nil) async throws(NetworkActivityError) {
        _ = try await call(LimitsMembers.setLimit.serviceCall(
            application, LimitChange(down: down, up: up, exemptFromPlans: exemptFromPlans, onMetered: onMetered)))
    }

    /// Turns this program's user's data saver on or off (`SetSaver`): while it is on, every app of theirs on a
    /// metered network is paused, but those whose rule allows or slows it there.
    public func setSaver(_ on: Bool) async throws(NetworkActivityError) {
        _ = try await call(LimitsMembers.setSaver.serviceCall(on))
    }

    /// Whether this program's user's data saver is on (`GetSaver`).
    public func saverIsOn() async throws(NetworkActivityError) -> Bool {
        try await call(LimitsMembers.getSaver.serviceCall())
    }

    /// Removes the rule of `application` (`RemoveLimit`).
    public func removeLimit(of application: String) async throws(NetworkActivityError) {
        _ = try await call(LimitsMembers.removeLimit.serviceCall(application))
    }
}
