import Foundation
import ServiceHarness

/// A session of the test's own beside a system service: its bus, its service (which follows the system service on
/// `system` and passes its users' interfaces on), a status notifier watcher, a notification server that answers
/// each `Notify` with the id 7, and the tray, registered with the watcher, with a runtime folder of its own.
struct SessionTray {
    let bus: PrivateBus
    let service: DaemonProcess
    let watcher: FakePeer
    let notifications: FakePeer
    let tray: TrayProcess

    init(following system: PrivateBus, trayArguments: [String], environment: [String: String] = [:]) throws {
        bus = try PrivateBus()
        service = try DaemonProcess(bus: bus, arguments: DaemonProcess.noDelays + ["--traffic"],
                                    environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.address])
        watcher = try TrayProcess.watcher(bus)
        notifications = try FakePeer(bus, owning: "org.freedesktop.Notifications",
                                     answers: ["Notify": { $0.makeReturn(with: UInt32(7)) }])
        let runtime = try temporaryDirectory("tray-runtime")
        tray = try TrayProcess(bus, arguments: trayArguments,
                               environment: environment.merging(["XDG_RUNTIME_DIR": runtime.path]) { $1 })
        try watcher.awaitCall("RegisterStatusNotifierItem")
    }
}
