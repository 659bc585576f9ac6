// SPDX-License-Identifier: Apache-2.0
import NetworkActivity
import ProgramSupport
import TrafficCounters

/// The app that a cgroup holds, by the desktops' convention for its unit's name (`CallerApplication`); for a
/// terminal's scope, the command running there; else the unit's own name (`apt-daily.service`).
struct CgroupApplication {
    /// From the cgroup tree's root.
    let path: String
    let application: String
    let label: ActivityLabel

    /// The scopes that terminals start a command in: GNOME's (VTE) and tmux's.
    static let terminalScopePrefixes = ["vte-spawn-", "tmux-spawn-"]

    /// Nil for the tree's root, which holds no app.
    init?(path: String, tree: CgroupTree) {
        guard let unit = path.split(separator: "/").last else { return nil }
        self.path = path
        if let id = CallerApplication.desktopID(ofUnit: unit) {
            application = id
            label = ActivityLabel(sanitizing: DesktopApplications.installed.application(id)?.name ?? id)
            return
        }
        if Self.terminalScopePrefixes.contains(where: { unit.hasPrefix($0) }),
           let command = tree.firstProcess(in: path).flatMap(CallerApplication.command(of:)) {
            application = command
        } else {
            guard CallerApplication.isPrintable(String(unit)) else { return nil }
            application = String(unit)
        }
        label = ActivityLabel(sanitizing: application)
    }
}
