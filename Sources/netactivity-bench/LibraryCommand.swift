import ArgumentParser
import DBusKit
import Foundation
import NetworkActivityClient
import NetworkActivityInterface
import ServiceHarness
import Synchronization

/// Begin+End pairs through the Swift library, its async calls against the blocking calls it made before
/// (docs/performance.md), in one run on one daemon.
struct LibraryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "Measures the Swift library's async calls against blocking ones, from one task and from many.",
        discussion: """
            Starts a dbus-daemon and a netactivityd (delays 0) of its own, and one client connection per way: \
            the library's NetworkActivityClient, whose calls suspend their task, and a connection shared by the \
            tasks that blocks each caller's thread in dbus_connection_send_with_reply_and_block (what the library \
            did before it was async). From 1 task and from --tasks tasks on that one connection, each way counts \
            Begin+End pairs for --duration seconds; the ways alternate --rounds times and the medians are printed.
            """)

    @Option(help: ArgumentHelp("The netactivityd to measure against (default: the one beside this program).",
                               valueName: "path"))
    var daemon: String?
    @Option(help: "Seconds each measurement runs.") var duration = 2.0
    @Option(help: "Tasks sharing one connection in the second measurement.") var tasks = 8
    @Option(help: "Times each measurement is repeated, alternating the ways.") var rounds = 3
    @Option(help: "Which ways to measure: both, or only async or blocking (to profile one).") var way = Way.both
    @Flag(help: "Print the figures as JSON.") var json = false

    enum Way: String, ExpressibleByArgument, CaseIterable {
        case both, async, blocking
    }

    func run() async throws {
        let bus = try PrivateBus()
        let service = try DaemonProcess(bus: bus, executable: try DaemonExecutable.find(daemon))
        let client = try NetworkActivityClient(address: bus.address)
        let blocking = try BlockingConnection(bus: .address(bus.address))
        let seconds = Duration.seconds(duration)

        var samples: [String: [Double]] = [:]
        for _ in 0..<rounds {
            for taskCount in [1, tasks] {
                if way != .blocking {
                    samples["async_\(taskCount)_pairs_per_s", default: []]
                        .append(try await pairsPerSecond(tasks: taskCount, for: seconds) { try await client.pair() })
                }
                if way != .async {
                    samples["blocking_\(taskCount)_pairs_per_s", default: []]
                        .append(try await pairsPerSecond(tasks: taskCount, for: seconds) { try blocking.pair() })
                }
            }
        }
        let figures = samples.mapValues(median)
        if json {
            print(String(decoding: try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys]),
                         as: UTF8.self))
        } else {
            print("netactivity-bench library: Begin+End pairs per second on one connection, medians of \(rounds)")
            for taskCount in [1, tasks] {
                let async = figures["async_\(taskCount)_pairs_per_s"] ?? 0
                let blocked = figures["blocking_\(taskCount)_pairs_per_s"] ?? 0
                print(String(format: "%2d task(s): async %8.0f /s   blocking %8.0f /s   async / blocking %.2f",
                             taskCount, async, blocked, async / blocked))
            }
        }
        _ = service
    }

    /// Runs `pair` in `tasks` tasks at once until `duration` has passed; returns the pairs per second of all.
    private func pairsPerSecond(tasks: Int, for duration: Duration,
                                _ pair: @escaping @Sendable () async throws -> Void) async throws -> Double {
        let started = ContinuousClock.now
        let pairs = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    var count = 0
                    while started.duration(to: .now) < duration {
                        try await pair()
                        count += 1
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        return Double(pairs) / started.duration(to: .now).seconds
    }
}

private func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

extension NetworkActivityClient {
    fileprivate func pair() async throws {
        try await begin("bench").end()
    }
}

extension BlockingConnection {
    fileprivate func pair() throws {
        var begun = try callService("Begin", timeout: .seconds(5)) { $0.append("bench") }
        let id = try begun.read(UInt32.self)
        _ = try callService("End", timeout: .seconds(5)) { $0.append(id) }
    }
}
