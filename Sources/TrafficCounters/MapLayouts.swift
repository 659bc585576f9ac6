// SPDX-License-Identifier: Apache-2.0

// The layouts of the maps' keys and values, and of the ring's records, as the counting programs
// (`CountingProgram`) and the service both read and write them.

/// The held map's values, by a cgroup's id: whether the app is paused, what holds it on a metered network, and
/// each way's limit, in a cache line of
/// its own (the bytes received are added on the CPU that takes a download's packets, those sent on the app's own).
/// A limit's queue end is the program's, which user space writes only when it writes the whole value (a new rule).
enum HeldLayout {
    static let valueSize = 192
    /// 1: every packet dropped but on loopback.
    static let paused: Int16 = 0
    /// 1: its packets pass a used-up plan.
    static let exemptFromPlans: Int16 = 8
    /// 1: its packets are dropped on a metered network (the metered map names its interface), but on loopback.
    static let pausedOnMetered: Int16 = 16
    /// Bytes a second, each way, at most on a metered network; 0 for none.
    static let meteredRate: Int16 = 24
    /// When the program last told the service that it held the app back (`WakeUpKind.heldBack`), in the kernel's
    /// monotonic nanoseconds; written by the program alone.
    static let toldAt: Int16 = 32
    /// Where each way's limit is.
    static let received: Int16 = 64
    static let sent: Int16 = 128
    // In a way's limit.
    /// Bytes a second; 0 for none.
    static let rate: Int16 = 0
    /// When the bytes passed so far will have left at the rate, in the kernel's monotonic nanoseconds.
    static let queueEnd: Int16 = 8
    /// How far ahead of now the queue may end before a packet is dropped, in nanoseconds.
    static let horizon: Int16 = 16
    /// How far ahead of now it may end before a sent packet's socket is told of congestion.
    static let congestion: Int16 = 24
}

/// The plans map's entries: a key of 12 bytes (the interface's index, the network namespace's cookie: the counters
/// key's last two fields), and a value the program takes each packet's bytes from.
enum PlanLayout {
    static let keySize = 12
    static let valueSize = 16
    /// The bytes that may still cross, a signed number: below a packet's length, its packets are dropped.
    static let allowance: Int16 = 0
    /// The allowance below which the plan reaches its next level, a signed number: the packet that takes the
    /// allowance below it wakes the service (the lowest number never does).
    static let wakeBelow: Int16 = 8
}

/// Why the kernel woke the service, the last field of a ring buffer record.
public enum WakeUpKind: UInt64, Sendable {
    /// An app first moved the threshold within a second on a network.
    case pastThreshold = 0
    /// An app moved something on a network since the service last took its counts: its entry is new.
    case newEntry = 1
    /// A packet of the app took its network's plan past a level: its warning, or used up (`PlanLayout.wakeBelow`).
    case planLevel = 2
    /// A packet of the app was dropped (or its socket told of congestion) by a rule or a used-up plan: at most once
    /// a second for a held app, and once until the service lets it go for one stopped by a plan.
    case heldBack = 3
}

/// The counters map's entries, as the program and the service both read them: a key of 24 bytes (the cgroup's
/// id, the socket owner's uid, the interface's index, the network namespace's cookie) and a value of five
/// 64-bit numbers, in three cache lines: the
/// bytes received are added on the CPU that takes a download's packets and the bytes sent on the app's own, and
/// what every packet reads stays in a line that neither writes, so that two CPUs do not fight over one line (the
/// egress program's cost went from about 250 to 200 ns a packet with `kernel.bpf_stats_enabled`, on loopback).
enum CounterLayout {
    static let keySize = 24
    static let valueSize = 152
    // In the key.
    static let cgroupID: Int16 = 0
    static let user: Int16 = 8
    static let interfaceIndex: Int16 = 12
    static let namespace: Int16 = 16
    /// A ring buffer record: the key, then its `WakeUpKind`.
    static let kind: Int16 = 24
    static let recordSize = 32
    // In the value.
    static let received: Int16 = 0
    static let sent: Int16 = 64
    /// 1 while the service follows the app (the kernel wakes it no more for it), 0 when it may be woken.
    static let followed: Int16 = 128
    /// When the current window began, in the kernel's monotonic nanoseconds.
    static let windowStart: Int16 = 136
    /// The app's bytes, both ways, when it began.
    static let windowStartBytes: Int16 = 144
}
