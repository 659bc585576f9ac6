// SPDX-License-Identifier: Apache-2.0
/// Bytes received and sent: one pair of counts, whoever counted them (the kernel, a take, a day's row).
public struct ByteCounts: Hashable, Sendable {
    public var received: UInt64
    public var sent: UInt64

    public init(received: UInt64 = 0, sent: UInt64 = 0) {
        self.received = received
        self.sent = sent
    }

    /// Sums stop at the largest count rather than wrap round to a small one or trap: no real count comes near,
    /// but a sum of counts read from elsewhere must not end a program.
    public var total: UInt64 { Self.sum(received, sent) }

    public static func += (lhs: inout ByteCounts, rhs: ByteCounts) {
        lhs.received = sum(lhs.received, rhs.received)
        lhs.sent = sum(lhs.sent, rhs.sent)
    }

    public static func sum(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}
