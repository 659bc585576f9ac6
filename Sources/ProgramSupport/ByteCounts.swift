// SPDX-License-Identifier: Apache-2.0
/// Bytes received and sent: one pair of counts, whoever counted them (the kernel, a take, a day's row).
public struct ByteCounts: Hashable, Sendable {
    public var received: UInt64
    public var sent: UInt64

    public init(received: UInt64 = 0, sent: UInt64 = 0) {
        self.received = received
        self.sent = sent
    }

    public var total: UInt64 { received &+ sent }

    public static func += (lhs: inout ByteCounts, rhs: ByteCounts) {
        lhs.received &+= rhs.received
        lhs.sent &+= rhs.sent
    }
}
