// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import NetworkActivityClient

/// What the shell offers after `netactivity end`: the ids of the timed activities that are active now; after
/// `netactivity cancel`, those that can be stopped.
///
/// Those are the ones `end` can end, since an activity from `Begin` ends only from its own connection. The shell
/// waits for the answer, so it asks once, gives up after a second and starts no service; on any failure it offers
/// nothing. On the system bus it also offers other users' timed activities, which `end` then refuses with
/// `NotOwner`: the service does not say who began a timed activity whose creator has left the bus.
enum ActivityIDCompletion {
    static let kind = CompletionKind.custom { words, _, prefix in
        guard let client = try? NetworkActivityClient(bus: bus(in: words), timeout: .seconds(1)),
              let ids = try? await client.timedActivityIDs()
        else { return [] }
        return ids.map(\.description).filter { $0.hasPrefix(prefix) }
    }

    static let cancellable = CompletionKind.custom { words, _, prefix in
        guard let client = try? NetworkActivityClient(bus: bus(in: words), timeout: .seconds(1)),
              let ids = try? await client.cancellableActivityIDs()
        else { return [] }
        return ids.map(\.description).filter { $0.hasPrefix(prefix) }
    }

    /// The bus that `--system` or `--address` among the words typed so far chooses, as `BusOptions` would.
    static func bus(in words: [String]) -> NetworkActivityClient.Bus {
        var remaining = words[...]
        var bus = NetworkActivityClient.Bus.session
        while let word = remaining.popFirst() {
            if word == "--system" {
                bus = .system
            } else if word == "--address", let address = remaining.first {
                bus = .address(address)
            } else if word.hasPrefix("--address=") {
                bus = .address(String(word.dropFirst("--address=".count)))
            }
        }
        return bus
    }
}
