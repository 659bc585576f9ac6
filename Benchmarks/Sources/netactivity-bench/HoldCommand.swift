// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import DBusKit
import Foundation

/// Opens many connections that each hold one activity, says `ready COUNT`, and waits to be killed: the test of
/// many clients vanishing at once (docs/reliability.md).
struct HoldCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hold", abstract: "Holds one activity on each of many connections until killed.",
        shouldDisplay: false)

    @Option var address: String
    @Option var connections = 1000

    func run() throws {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        let opened = try (0..<connections).map { _ in try Connection(bus: .address(address)) }
        for connection in opened { _ = try connection.beginActivities(1, label: "held") }
        emit("ready \(opened.count)")
        withExtendedLifetime(opened) {
            while readLine() != nil {}
            // Standard input closed: wait for the kill all the same.
            while true { pause() }
        }
    }
}
