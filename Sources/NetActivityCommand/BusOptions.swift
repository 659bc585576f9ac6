// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Localization
import NetworkActivityClient

/// Which bus to talk to, the same flags as `netactivityd`'s.
struct BusOptions: ParsableArguments {
    @Flag(help: "Use the system bus instead of the session bus.")
    var system = false

    @Option(help: ArgumentHelp("Use the bus at this address, e.g. unix:path=/run/user/1000/bus.", valueName: "address"))
    var address: String?

    func validate() throws {
        if system, address != nil { throw ValidationError(localized("--system and --address exclude each other.")) }
    }

    var bus: NetworkActivityClient.Bus {
        address.map(NetworkActivityClient.Bus.address) ?? (system ? .system : .session)
    }

    /// A client on the chosen bus.
    func connect() throws(NetworkActivityError) -> NetworkActivityClient {
        try NetworkActivityClient(bus: bus)
    }
}
