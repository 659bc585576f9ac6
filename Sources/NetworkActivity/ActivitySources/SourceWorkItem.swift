// SPDX-License-Identifier: Apache-2.0
/// What a source names one piece of its work by: while the source reports the same item, it is the same activity.
public enum SourceWorkItem: Sendable, Hashable {
    /// A PackageKit transaction, by its object path.
    case transaction(path: String)
    /// An app's progress on its launcher, by the connection that sent it and the app's desktop file id.
    case launcherEntry(sender: String, application: String)
    /// An app's traffic that the kernel measured.
    case appTraffic(TrafficItem)

    /// The source whose work it is.
    public var source: ActivitySource {
        switch self {
        case .transaction: .packagekit
        case .launcherEntry: .launcher
        case .appTraffic: .traffic
        }
    }

    /// Whether it is a launcher entry that `sender` sent.
    public func isLauncherEntry(of sender: String) -> Bool {
        if case .launcherEntry(sender, _) = self { true } else { false }
    }
}

/// An app whose traffic the kernel measured, as a piece of the `traffic` source's work: its cgroup, and whose app
/// it is (`TrafficVisibility.user`).
public struct TrafficItem: Sendable, Hashable {
    public let cgroupID: UInt64
    public let user: UInt32

    public init(cgroupID: UInt64, user: UInt32) {
        self.cgroupID = cgroupID
        self.user = user
    }
}
