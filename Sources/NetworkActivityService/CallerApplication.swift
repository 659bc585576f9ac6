// SPDX-License-Identifier: Apache-2.0
import ProgramSupport

/// The application behind a caller, as the system names it: the desktop file id from the systemd unit that the
/// desktop started it in, otherwise the process's command name.
///
/// GNOME, KDE and Flatpak start every application in a unit named by the XDG convention
/// (systemd.io/DESKTOP_ENVIRONMENTS): `app[-<launcher>]-<app id>-<random>.scope` or
/// `app[-<launcher>]-<app id>[@<random>].service`, with the dashes of the id escaped as `\x2d`, so that the parts
/// split at the remaining dashes. Flatpak's are `app-flatpak-<app id>-<n>.scope`.
enum CallerApplication {
    /// The application of a process; nil when the process is gone.
    static func of(processID: UInt32) -> String? {
        if let cgroups = readSmallTextFile(atPath: "/proc/\(processID)/cgroup"), let id = desktopID(inCgroups: cgroups) {
            return id
        }
        return command(of: processID)
    }

    /// A process's cgroup in the cgroup v2 tree (`0::PATH` of `/proc/PID/cgroup`); nil when the process is gone.
    static func unifiedCgroup(ofProcess processID: UInt32) -> String? {
        guard let text = readSmallTextFile(atPath: "/proc/\(processID)/cgroup") else { return nil }
        return text.split(separator: "\n").first { $0.hasPrefix("0::") }.map { String($0.dropFirst(3)) }
    }

    /// The Flatpak app a process runs as, as xdg-desktop-portal tells one: the `[Application]` name of the
    /// `/.flatpak-info` that Flatpak puts at its root, or else the app of the `app-flatpak-ID-N.scope` it runs in
    /// (Flatpak starts the app and its bus proxy there). Nil for a process in no sandbox, or gone. Neither is
    /// the process's own word: the sandbox's root is Flatpak's, and only the user's systemd makes the scope.
    static func sandboxedApp(ofProcess processID: UInt32) -> String? {
        if let info = readSmallTextFile(atPath: "/proc/\(processID)/root/.flatpak-info"),
           let name = flatpakApp(inInfo: info) {
            return name
        }
        guard let cgroups = readSmallTextFile(atPath: "/proc/\(processID)/cgroup") else { return nil }
        for line in cgroups.split(separator: "\n") where isSystemdHierarchy(line) {
            guard let unit = line.split(separator: "/").last, unit.hasPrefix("app-flatpak-") else { continue }
            return desktopID(ofUnit: unit)
        }
        return nil
    }

    /// The `name` of the `[Application]` group of a `.flatpak-info` (a key file).
    static func flatpakApp(inInfo text: String) -> String? {
        var inApplication = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("[") {
                inApplication = line == "[Application]"
            } else if inApplication, line.hasPrefix("name=") {
                let name = String(line.dropFirst("name=".count))
                return isPrintable(name) ? name : nil
            }
        }
        return nil
    }

    /// A process's command name; nil when the process is gone.
    static func command(of processID: UInt32) -> String? {
        let command = readSmallTextFile(atPath: "/proc/\(processID)/comm").map {
            $0.hasSuffix("\n") ? String($0.dropLast()) : $0
        }
        // A process names itself (prctl): what it chose is shown to people, so it must read as a name.
        return command.flatMap { isPrintable($0) ? $0 : nil }
    }

    /// Whether a name has no control characters, which a panel or a terminal would act on.
    static func isPrintable(_ name: String) -> Bool {
        !name.isEmpty && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// The desktop file id in `/proc/PID/cgroup`'s text: from the systemd hierarchy (the unified one, or the
    /// `name=systemd` one of a hybrid set-up), the innermost unit named by the convention.
    static func desktopID(inCgroups text: String) -> String? {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[1].isEmpty || fields[1] == "name=systemd" else { continue }
            for unit in fields[2].split(separator: "/").reversed() {
                if let id = desktopID(ofUnit: unit) { return id }
            }
        }
        return nil
    }

    /// Whether a line of /proc/PID/cgroup (`ID:CONTROLLERS:PATH`) is of the hierarchy where systemd puts units:
    /// cgroup v2's (`0::`) or v1's named one (`N:name=systemd:`). Split by fields, not searched: the string searches
    /// are _StringProcessing's, which the daemon links none of (docs/performance.md).
    static func isSystemdHierarchy(_ line: Substring) -> Bool {
        let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3 else { return false }
        return fields[0] == "0" && fields[1].isEmpty || fields[1] == "name=systemd"
    }

    /// The desktop file id in a unit's name; nil for a unit not named by the convention.
    static func desktopID(ofUnit unit: Substring) -> String? {
        let parts: [Substring]
        if unit.hasSuffix(".scope") {
            // launcher, id, random; or id, random.
            parts = unit.dropLast(".scope".count).split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3 || parts.count == 4 else { return nil }
        } else if unit.hasSuffix(".service") {
            let name = unit.dropLast(".service".count).prefix { $0 != "@" }
            // launcher, id; or id.
            parts = name.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2 || parts.count == 3 else { return nil }
        } else {
            return nil
        }
        guard parts[0] == "app" else { return nil }
        let escaped = unit.hasSuffix(".scope") ? parts[parts.count - 2] : parts[parts.count - 1]
        guard let id = unescaped(escaped), isPrintable(id), !id.contains("/") else { return nil }
        return id
    }

    /// A unit name's part with systemd's `\xNN` escapes undone; nil when an escape is malformed.
    static func unescaped(_ part: Substring) -> String? {
        var bytes: [UInt8] = []
        var rest = part.utf8[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "\\") else { bytes.append(byte); continue }
            guard rest.popFirst() == UInt8(ascii: "x"), rest.count >= 2,
                  let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            rest = rest.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
