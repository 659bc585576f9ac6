// SPDX-License-Identifier: Apache-2.0
import NetworkActivity
import TrafficCounters

/// Tells the kernel which interfaces of the service's namespace are on a metered network (NetworkManager's
/// `Metered` yes or guess-yes, `NetworkNames`), for the rules that hold apps there (`MeteredRule`, the data
/// saver; `CountingProgram.holdBack`): at start, and at each of NetworkManager's changes, so that leaving a metered
/// network lifts them as soon as NetworkManager says so. An interface it cannot name is not metered.
final class MeteredNetworks {
    private unowned let kernel: TrafficKernel
    /// The namespace's cookie in the metered map's keys, as the programs find it.
    private let namespace: UInt64
    /// The interfaces the kernel holds as metered now, with their networks' names.
    private(set) var metered: [UInt32: String] = [:]

    init(kernel: TrafficKernel) {
        self.kernel = kernel
        namespace = kernel.counters.tellsNamespaces ? TrafficCounters.ownNamespace() ?? 0 : 0
        kernel.networks.onChange { [unowned self] in follow() }
        follow()
    }

    private func follow() {
        var now: [UInt32: String] = [:]
        for (index, network) in kernel.networks.interfacesAndNetworks() where network.metered {
            now[index] = network.name
        }
        for (index, name) in metered where now[index] == nil {
            _ = kernel.counters.setMetered(false, interfaceIndex: index, namespace: namespace)
            metered[index] = nil
            kernel.logger.info("\(name) (interface \(index)) is no longer metered")
        }
        for (index, name) in now {
            // Held already, perhaps under the interface's name until NetworkManager told its connection's.
            if metered[index] != nil {
                metered[index] = name
                continue
            }
            guard kernel.counters.setMetered(true, interfaceIndex: index, namespace: namespace) else {
                kernel.logger.warning("cannot hold \(name) as metered: at most \(TrafficCounters.plannedCapacity) interfaces may be")
                continue
            }
            metered[index] = name
            kernel.logger.info("\(name) (interface \(index)) is metered")
        }
    }
}
