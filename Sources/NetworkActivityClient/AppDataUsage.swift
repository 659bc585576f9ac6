// SPDX-License-Identifier: Apache-2.0
public import NetworkActivityInterface

/// The data one app used on one network on one day (`GetUsage`), as the system service counted it: bytes
/// received and sent, headers included.
public struct AppDataUsage: Sendable, Hashable {
    /// The record as the service gave it; `netactivity usage --json` writes its keys.
    public let record: UsageRecord

    public init(_ record: UsageRecord) {
        self.record = record
    }

    /// The app: desktop file id, command or unit name.
    public var application: String { record.application }
    /// Its name for people.
    public var label: String { record.label }
    public var user: UInt32 { record.user }
    /// NetworkManager's connection (`Phone hotspot`), else the interface (`eth0`).
    public var network: String { record.network }
    /// Whether the network was metered when the bytes moved.
    public var isMetered: Bool { record.isMetered }
    public var received: UInt64 { record.received }
    public var sent: UInt64 { record.sent }
    public var total: UInt64 { record.total }
    /// The local day, `YYYY-MM-DD`.
    public var day: String { record.day }
    /// The user in whose slice the app ran; nil for the machine's services.
    public var privateTo: UInt32? { record.privateTo }
}

extension NetworkActivityClient {
    /// The data each app used from the day `since` (`YYYY-MM-DD` in local time; nil: every day kept), most bytes
    /// first (`GetUsage`): one row per day with `daily`, else each app's bytes on a network summed over the days.
    /// This program's user's apps and the machine's services (root: everyone's). Throws `NotCountingTraffic` where
    /// the system service does not count apps' traffic.
    public func usage(since: String? = nil, daily: Bool = true) async throws(NetworkActivityError) -> [AppDataUsage] {
        try await call(UsageMembers.getUsage.serviceCall(since ?? "", daily)).map(AppDataUsage.init)
    }

    /// Forgets the data usage of this program's user's apps (root: every row) (`ClearUsage`); returns how many
    /// rows.
    @discardableResult
    public func clearUsage() async throws(NetworkActivityError) -> Int {
        Int(try await call(UsageMembers.clearUsage.serviceCall()))
    }
}
