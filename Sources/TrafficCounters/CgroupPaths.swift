// SPDX-License-Identifier: Apache-2.0
public import ProgramSupport

/// The cgroups' paths by id, from one walk of the tree (`CgroupTree.allPaths`), walked again for an id it lacks
/// (a new app's cgroup) at most ten times a second: soon enough that an app which starts under a speed limit is held
/// within a tenth of a second (`AppLimits`), while naming a thousand new cgroups costs a few walks, not a walk
/// each, so a user who makes cgroups by the thousand in their own part of the tree cannot keep the service walking.
public struct CgroupPaths {
    public static let walkInterval = Duration.milliseconds(100)

    public let tree: CgroupTree
    private var paths: [UInt64: String] = [:]
    private var walkedAt: MonotonicTime?

    /// What is known of an id's cgroup.
    public enum Lookup: Equatable {
        case found(String)
        /// Not in the last walk, which was too recent to walk again: ask at the next read.
        case notYet
        /// Not in a walk made now: the cgroup is gone.
        case gone
    }

    public init(tree: CgroupTree) {
        self.tree = tree
    }

    public mutating func path(of id: UInt64, at now: MonotonicTime) -> Lookup {
        if let path = paths[id] { return .found(path) }
        if let walkedAt, walkedAt.duration(to: now) < Self.walkInterval { return .notYet }
        paths = tree.allPaths()
        walkedAt = now
        return paths[id].map(Lookup.found) ?? .gone
    }
}
