// SPDX-License-Identifier: Apache-2.0
public import ProgramSupport

/// The cgroups' paths by id, from one walk of the tree (`CgroupTree.allPaths`), walked again for an id it lacks
/// (a new app's cgroup) at most once a second: naming a thousand new cgroups costs one walk, not a walk each, so a
/// user who makes cgroups by the thousand in their own part of the tree cannot keep the service walking.
///
/// Where a new cgroup is likely to be is known (a user with speed limits, whose app just started), it is looked for
/// there first (`path(of:at:lookingFirstIn:)`): those slices' units alone, up to ten times a second, which finds a
/// new app within a tenth of a second for the cost of listing a folder or two.
public struct CgroupPaths {
    public static let walkInterval = Duration.seconds(1)
    public static let lookInterval = Duration.milliseconds(100)

    public let tree: CgroupTree
    private var paths: [UInt64: String] = [:]
    private var walkedAt: MonotonicTime?
    private var lookedAt: MonotonicTime?

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

    /// As `path(of:at:)`, but first among the units of `places` (paths from the tree's root, each a slice or a
    /// user's manager, `CgroupTree.units(under:)`) when they were not listed within `lookInterval`.
    public mutating func path(of id: UInt64, at now: MonotonicTime, lookingFirstIn places: [String]) -> Lookup {
        if let path = paths[id] { return .found(path) }
        if !places.isEmpty, lookedAt.map({ $0.duration(to: now) >= Self.lookInterval }) ?? true {
            lookedAt = now
            for place in places { paths.merge(tree.units(under: place)) { _, listed in listed } }
            if let path = paths[id] { return .found(path) }
        }
        return path(of: id, at: now)
    }
}
