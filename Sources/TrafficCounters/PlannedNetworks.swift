// SPDX-License-Identifier: Apache-2.0
import CKernelCounters

/// The plans map: the interfaces under a data plan, each with the bytes that may still cross it
/// (`CountingProgram.keepToPlan`); and the metered map, of the interfaces on a metered network.
extension TrafficCounters {
    /// From now on, lets `allowance` more bytes cross the interface of index `interfaceIndex` in the network
    /// namespace of cookie `namespace` (0 where the keys cannot tell namespaces apart), both ways, every app's
    /// together but loopback's; past them, its packets are dropped. The packet that takes the allowance below
    /// `wakingBelow` wakes the service (`WakeUpKind.planLevel`); nil never does. A nil allowance lets every packet
    /// through again. Returns false when the kernel refused (as many interfaces as `plannedCapacity` are under a
    /// plan).
    public func setPlanAllowance(_ allowance: UInt64?, wakingBelow: UInt64? = nil, interfaceIndex: UInt32,
                                 namespace: UInt64) -> Bool {
        var key = Self.planKey(interfaceIndex: interfaceIndex, namespace: namespace)
        guard let allowance else {
            ckc_map_element(Int32(BPF_MAP_DELETE_ELEM.rawValue), plans, &key, nil, 0)
            return true
        }
        var value = [Int64(clamping: allowance), wakingBelow.map { Int64(clamping: $0) } ?? .min]
        return ckc_map_element(Int32(BPF_MAP_UPDATE_ELEM.rawValue), plans, &key, &value, 0) == 0
    }

    /// The bytes that may still cross an interface under a plan, 0 when it is used up; nil when none is.
    public func planAllowance(interfaceIndex: UInt32, namespace: UInt64) -> UInt64? {
        var key = Self.planKey(interfaceIndex: interfaceIndex, namespace: namespace)
        var value: [Int64] = [0, 0]
        guard ckc_map_element(Int32(BPF_MAP_LOOKUP_ELEM.rawValue), plans, &key, &value, 0) == 0 else { return nil }
        return UInt64(max(0, value[0]))
    }

    /// From now on, holds the apps whose rules say so on the interface as on a metered network
    /// (`CountingProgram.holdBack`), or no longer. Returns false when the kernel refused (as many interfaces as
    /// `plannedCapacity` are metered).
    public func setMetered(_ isMetered: Bool, interfaceIndex: UInt32, namespace: UInt64) -> Bool {
        var key = Self.planKey(interfaceIndex: interfaceIndex, namespace: namespace)
        guard isMetered else {
            ckc_map_element(Int32(BPF_MAP_DELETE_ELEM.rawValue), metered, &key, nil, 0)
            return true
        }
        var value: UInt64 = 1
        return ckc_map_element(Int32(BPF_MAP_UPDATE_ELEM.rawValue), metered, &key, &value, 0) == 0
    }

    /// The key's bytes: the interface's index, then the cookie, unaligned, as the counters' key ends.
    private static func planKey(interfaceIndex: UInt32, namespace: UInt64) -> [UInt8] {
        withUnsafeBytes(of: interfaceIndex) { Array($0) } + withUnsafeBytes(of: namespace) { Array($0) }
    }
}
