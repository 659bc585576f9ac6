import Foundation
import ServiceHarness

/// A desktop's pair of services, each on a private bus of its own: the system service counting apps' traffic, and
/// the session's service (`--traffic`) that shows its user's share of it, started and following the system's.
struct SessionOverSystem {
    let system: PrivateBus
    let session: PrivateBus
    let systemService: DaemonProcess
    let sessionService: DaemonProcess

    init(systemArguments: [String]) throws {
        system = try PrivateBus()
        session = try PrivateBus()
        systemService = try DaemonProcess(bus: system, arguments: systemArguments, systemBus: true)
        sessionService = try DaemonProcess(bus: session, arguments: DaemonProcess.noDelays + ["--traffic"],
                                           environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.address])
        try sessionService.awaitLog("following the system service")
    }
}
