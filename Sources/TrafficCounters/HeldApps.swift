// SPDX-License-Identifier: Apache-2.0

import CKernelCounters

/// The held map: the apps the kernel holds back, paused or limited, by their cgroup's id
/// (`CountingProgram.holdBack`).
extension TrafficCounters {
    /// Holds back the packets of the app in cgroup `cgroupID` from now on as `holding` says, but on loopback
    /// (`CountingProgram.holdBack`): a paused app's dropped, both ways, uncounted; a limited app's kept to its
    /// rates; an app exempted from plans let past a used-up one (`CountingProgram.keepToPlan`). Until it is held
    /// otherwise, or until this process ends (the programs go with their links, and the map with them). A holding
    /// of nothing lets its packets through. Returns false when the kernel refused (as many
    /// apps as `heldCapacity` are held).
    public func hold(cgroupID: UInt64, _ holding: Holding) -> Bool {
        var key = cgroupID
        guard holding.needsEntry else {
            ckc_map_element(Int32(BPF_MAP_DELETE_ELEM.rawValue), held, &key, nil, 0)
            return true
        }
        var value = [UInt8](repeating: 0, count: HeldLayout.valueSize)
        value.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: holding.paused ? 1 : 0, toByteOffset: Int(HeldLayout.paused), as: UInt64.self)
            raw.storeBytes(of: holding.exemptFromPlans ? 1 : 0, toByteOffset: Int(HeldLayout.exemptFromPlans),
                           as: UInt64.self)
            raw.storeBytes(of: holding.pausedOnMetered ? 1 : 0, toByteOffset: Int(HeldLayout.pausedOnMetered),
                           as: UInt64.self)
            raw.storeBytes(of: holding.meteredRate ?? 0, toByteOffset: Int(HeldLayout.meteredRate), as: UInt64.self)
            // A way's queue is paced at the metered rate on a metered network even where it has no rate of its own.
            for (offset, rate) in [(HeldLayout.received, holding.receiveRate), (HeldLayout.sent, holding.sendRate)] {
                let limit = Int(offset)
                raw.storeBytes(of: rate ?? 0, toByteOffset: limit + Int(HeldLayout.rate), as: UInt64.self)
                raw.storeBytes(of: Holding.horizon, toByteOffset: limit + Int(HeldLayout.horizon),
                               as: UInt64.self)
                raw.storeBytes(of: Holding.congestion, toByteOffset: limit + Int(HeldLayout.congestion),
                               as: UInt64.self)
            }
        }
        return ckc_map_element(Int32(BPF_MAP_UPDATE_ELEM.rawValue), held, &key, &value, 0) == 0
    }

    /// How the kernel holds the app back; nil when it does not.
    public func holding(of cgroupID: UInt64) -> Holding? {
        var key = cgroupID
        var value = [UInt8](repeating: 0, count: HeldLayout.valueSize)
        guard ckc_map_element(Int32(BPF_MAP_LOOKUP_ELEM.rawValue), held, &key, &value, 0) == 0 else { return nil }
        return value.withUnsafeBytes { raw in
            func rate(_ offset: Int16) -> UInt64? {
                let rate = raw.load(fromByteOffset: Int(offset + HeldLayout.rate), as: UInt64.self)
                return rate == 0 ? nil : rate
            }
            return Holding(paused: raw.load(fromByteOffset: Int(HeldLayout.paused), as: UInt64.self) != 0,
                           receiveRate: rate(HeldLayout.received), sendRate: rate(HeldLayout.sent),
                           exemptFromPlans: raw.load(fromByteOffset: Int(HeldLayout.exemptFromPlans),
                                                     as: UInt64.self) != 0,
                           pausedOnMetered: raw.load(fromByteOffset: Int(HeldLayout.pausedOnMetered),
                                                     as: UInt64.self) != 0,
                           meteredRate: rate(HeldLayout.meteredRate - HeldLayout.rate))
        }
    }
}
