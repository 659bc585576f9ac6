#if DEBUG  // A fuzz target reads internals (@testable), which a debug build alone compiles for: ReleaseBuild.swift.
@testable import NetworkActivity
import ProgramSupport

/// One or more of each: labels at the edges of the rules, names of each kind, a state file as the service writes
/// it, the daemon's flags, the command's plain forms, a desktop session's cgroups, a desktop file.
func outsideTextSeeds() -> [String: [UInt8]] {
    func text(_ parser: UInt8, _ text: String) -> [UInt8] { [parser] + Array(text.utf8) }
    func arguments(_ parser: UInt8, _ words: [String]) -> [UInt8] {
        [parser] + Array(words.joined(separator: "\u{0}").utf8)
    }
    var journal = StateJournal()
    var tracker = ActivityTracker()
    let now = Timestamp(monotonic: MonotonicTime(microseconds: 1_000_000), wallClock: 1_800_000_000_000_000)
    _ = try? tracker.begin(label: ActivityLabel("mail"), caller: ":1.4", at: now) { _ in 1000 }
    _ = try? tracker.beginTimed(label: ActivityLabel("backup ✓"), caller: ":1.5", user: 1000, seconds: 600, at: now) { _ in 1000 }
    var history = ActivityHistory(limitPerUser: 4)
    if let label = try? ActivityLabel("update") {
        history.record(FinishedActivity(id: ActivityID(rawValue: 3), label: label, owner: ":1.7 /1_abc", user: 0,
                                        processID: 42, application: "pkcon", source: .packagekit,
                                        startedAt: 1_799_999_000_000_000, endedAt: 1_800_000_000_000_000,
                                        outcome: .stopped, progress: ActivityProgress(percent: 40, done: nil,
                                                                                      total: nil, rate: 1000),
                                        wasCancellable: true))
    }
    journal.appendFile(of: tracker, history: history, busID: "0123456789abcdef0123456789abcdef")
    if let id = tracker.all.first?.id { journal.appendEnded(id) }
    return [
        "label": text(0, "nightly backup"),
        "label-long": text(0, String(repeating: "é", count: 128)),
        "label-control": text(0, "a\u{85}b"),
        "path": [1, 0] + Array("/org/example/NetworkActivity".utf8),
        "bus-name": [1, 1] + Array(":1.42".utf8),
        "well-known": [1, 1] + Array("org.example.NetworkActivity".utf8),
        "interface": [1, 2] + Array("org.freedesktop.DBus.Properties".utf8),
        "member": [1, 3] + Array("BeginWithTimeout".utf8),
        "error": [1, 4] + Array("org.example.NetworkActivity.Error.NotOwner".utf8),
        "state-file": [2, 0] + journal.bytes,
        "state-records": [2, 1, 9, 3, 1, 0, 0, 0, 0, 0, 0, 0],
        "daemon": arguments(3, ["--show-delay", "0.5", "--max-total=100", "--system", "--log-level", "debug"]),
        "daemon-address": arguments(3, ["--address", "unix:path=/run/user/1000/bus", "--state-dir=/tmp/x", "--replace"]),
        "begin": arguments(4, ["begin", "--timeout", "600", "--label", "backup"]),
        "end": arguments(4, ["end", "--system", "7"]),
        "run": arguments(4, ["run", "--label=fetch", "--strict", "--notify", "--kill-after", "5", "--", "curl", "-O"]),
        "watch": arguments(4, ["watch", "--format", "waybar", "--show-idle", "--address=unix:path=/tmp/bus"]),
        "cgroup": text(5, "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.gnome.Nautilus-4711.scope\n"),
        "cgroup-flatpak": text(5, "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-flatpak-org.example.App-12.scope\n"),
        "cgroup-hybrid": text(5, "12:cpu:/\n1:name=systemd:/user.slice/app-org.kde.dolphin@a1b2.service\n"),
        "desktop": text(6, "[Desktop Entry]\nType=Application\nName=Backup Tool\nName[de]=Sicherung\nIcon=document-save\n"),
    ]
}
#endif
