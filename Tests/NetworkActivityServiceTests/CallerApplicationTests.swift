import Foundation
@testable import NetworkActivityService
import Testing

/// How the service names the application behind a caller from its process's control group.
@Suite("The application behind a caller")
struct CallerApplicationTests {
    @Test(arguments: [
        // GNOME Shell, with the launcher's name and the id's dashes escaped.
        ("app-gnome-firefox\\x2desr-4711.scope", "firefox-esr"),
        ("app-gnome-org.gnome.Nautilus-2281.scope", "org.gnome.Nautilus"),
        // KDE Plasma names no launcher.
        ("app-org.kde.dolphin-3a4b5c.scope", "org.kde.dolphin"),
        ("app-flatpak-org.mozilla.firefox-123456.scope", "org.mozilla.firefox"),
        // Services: the random part, if any, after an @.
        ("app-gnome-org.gnome.Evolution\\x2dalarm\\x2dnotify@autostart.service", "org.gnome.Evolution-alarm-notify"),
        ("app-org.kde.kdeconnect.daemon@autostart.service", "org.kde.kdeconnect.daemon"),
        ("app-gnome-org.gnome.Software.service", "org.gnome.Software"),
    ])
    func aUnitNamedByTheConventionGivesItsDesktopFileID(unit: String, id: String) {
        #expect(CallerApplication.desktopID(ofUnit: unit[...]) == id)
    }

    @Test(arguments: [
        "session-2.scope", "vte-spawn-8d1c0f52-2a6d-4e16-9b22-5d0d6c4e8a51.scope", "app.slice", "user@1000.service",
        "dbus-:1.2-org.gnome.Shell.Notifications@0.service", "app-.scope", "app--1.scope", "app-gnome--1.scope",
        "app-gnome-bad\\xZZ-1.scope", "app-gnome-a-b-c-d.scope", "init.scope", "app-gnome-..\\x2f..-1.scope",
        "app-gnome-bell\\x07-1.scope", "app-gnome-\\x1b[31mred-1.scope",
    ])
    func otherUnitsGiveNone(unit: String) {
        #expect(CallerApplication.desktopID(ofUnit: unit[...]) == nil)
    }

    @Test(arguments: [
        ("0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-flatpak-org.x.Y-1.scope", true),
        ("1:name=systemd:/user.slice/user-1000.slice/user@1000.service/app.slice/x.scope", true),
        ("12:cpu,cpuacct:/user.slice", false), ("4:memory:/", false), ("0:name=systemd", false), ("", false),
        ("3:name=systemd2:/", false), ("7:pids:/name=systemd:/", false),
    ])
    func aLineIsOfTheSystemdHierarchyByItsFields(line: String, isSystemd: Bool) {
        #expect(CallerApplication.isSystemdHierarchy(line[...]) == isSystemd)
    }

    @Test func theInnermostApplicationUnitOfTheSystemdHierarchyCounts() {
        let unified = """
            0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.gnome.Terminal-77.scope/sub
            """
        #expect(CallerApplication.desktopID(inCgroups: unified + "\n") == "org.gnome.Terminal")
        // A hybrid set-up: the named systemd hierarchy, with the controllers' own paths ignored.
        let hybrid = """
            12:memory:/app-gnome-wrong-1.scope
            1:name=systemd:/user.slice/user-1000.slice/user@1000.service/app.slice/app-flatpak-org.example.Mail-9.scope
            0::/
            """
        #expect(CallerApplication.desktopID(inCgroups: hybrid) == "org.example.Mail")
        #expect(CallerApplication.desktopID(inCgroups: "0::/user.slice/user-1000.slice/session-2.scope\n") == nil)
        #expect(CallerApplication.desktopID(inCgroups: "") == nil)
    }

    @Test func aProcessIsNamedByItsApplicationsUnitOrElseByItsCommand() throws {
        let ownCgroups = try #require(readOwnFile("/proc/self/cgroup"))
        let command = try #require(readOwnFile("/proc/self/comm")).dropLast()
        let expected = CallerApplication.desktopID(inCgroups: ownCgroups) ?? String(command)
        #expect(CallerApplication.of(processID: UInt32(getpid())) == expected)
        #expect(CallerApplication.of(processID: UInt32(Int32.max)) == nil, "no such process")
        // A process names itself: a name a terminal or a panel would act on is no name.
        #expect(CallerApplication.isPrintable("Web Content") && CallerApplication.isPrintable("café"))
        #expect(!CallerApplication.isPrintable("evil\u{1B}]0;title\u{7}") && !CallerApplication.isPrintable(""))
    }

    private func readOwnFile(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }
}
