import NetworkActivityInterface
import Foundation
import ServiceHarness
import Testing

extension Integration {
    /// Who is who: the service names the application behind each activity from the systemd unit that the desktop
    /// or Flatpak started it in, and every place that shows activities names it as its desktop file does.
    @Suite("The application behind an activity")
    struct ApplicationIdentityTests {
        @Test(.enabled(if: ApplicationCgroup.canBeMade,
                       "placing a client in an application's unit needs root and a writable cgroup tree"),
              arguments: [
                  // GNOME Shell's launch of backup-tool.desktop; the id's dash escaped as systemd escapes it.
                  ("app-gnome-backup\\x2dtool-4711.scope", "backup-tool"),
                  ("app-flatpak-org.example.Backup-4711.scope", "org.example.Backup"),
              ])
        func anActivityFromAnApplicationsUnitShowsTheApplicationsNameEverywhere(unitName: String, id: String) throws {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus)
            let watcher = try TrayProcess.watcher(bus)
            let dataDirectory = bus.directory.appendingPathComponent("share")
            let applications = dataDirectory.appendingPathComponent("applications")
            try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
            try "[Desktop Entry]\nType=Application\nName=Backup Tool\nName[de]=Sicherung\nIcon=document-save\n"
                .write(to: applications.appendingPathComponent("\(id).desktop"), atomically: true, encoding: .utf8)
            let desktop = ["XDG_DATA_DIRS": dataDirectory.path, "HOME": bus.directory.path]
            let host = try TrayMenuTests.menuHost(bus)
            let tray = try TrayProcess(bus, environment: desktop)
            let watch = try BackgroundProcess(Paths.cli, ["watch", "--format", "waybar"], bus: bus,
                                              environment: desktop)

            // The client moves itself into the unit, then becomes `netactivity run`.
            let cgroup = try ApplicationCgroup(unitName: unitName)
            let run = try BackgroundProcess(
                URL(fileURLWithPath: "/bin/sh"),
                ["-c", #"echo $$ > "$0/cgroup.procs" && exec "$1" run --label backup -- sleep 60"#,
                 cgroup.unit.path, Paths.cli.path], bus: bus)
            defer {
                run.send(SIGTERM)
                _ = run.exitStatus()
            }

            // A panel module's tooltip.
            _ = try watch.awaitLine("a tooltip naming Backup Tool") { $0.contains(#""tooltip":"Backup Tool: backup""#) }
            // The record, as a client nobody here wrote reads it.
            let activities = try gdbusCall(bus, ServiceMembers.getActivities.name)
            #expect(activities.stdout.contains("'app': <'\(id)'>"), "\(activities)")
            // `status`: the record's desktop file id, and the name people read, in their language.
            let status = try runTool(Paths.cli.path, ["status", "--json"], bus: bus, environment: desktop)
            #expect(status.stdout.contains(#""app":"\#(id)""#), "\(status)")
            let table = try runTool(Paths.cli.path, ["status"], bus: bus, environment: desktop)
            #expect(table.stdout.contains(" Backup Tool "), "\(table)")
            let german = try runTool(Paths.cli.path, ["status"], bus: bus,
                                     environment: desktop.merging(["LANG": "de_DE.UTF-8"]) { $1 })
            #expect(german.stdout.contains(" Sicherung "), "\(german)")
            // The tray's row, with the application's icon.
            try watcher.awaitCall("RegisterStatusNotifierItem")
            let layout = try TrayMenuTests.awaitLayout(bus, tray, host, containing: "'Backup Tool: backup — ")
            #expect(layout.contains("'icon-name': <'document-save'>"), "\(layout)")
            _ = service
        }

        /// A process outside any application's unit is named by its command, in `status` and the record; the
        /// tray and the panel modules, where a command's name would tell less than the label, show the label.
        @Test func aClientOutsideAnApplicationIsNamedByItsCommand() throws {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus)
            let watch = try BackgroundProcess(Paths.cli, ["watch", "--format", "waybar"], bus: bus)
            let run = try BackgroundProcess(Paths.cli, ["run", "--label", "backup", "--", "sleep", "60"], bus: bus)
            defer {
                run.send(SIGTERM)
                _ = run.exitStatus()
            }
            _ = try watch.awaitLine("a tooltip with the label alone") { $0.contains(#""tooltip":"backup""#) }
            #expect(try gdbusCall(bus, ServiceMembers.getActivities.name).stdout.contains("'app': <'netactivity'>"))
            let table = try netactivity(bus, "status")
            #expect(table.stdout.contains(" netactivity "), "\(table)")
            _ = service
        }
    }
}

