// SPDX-License-Identifier: Apache-2.0
internal import CDBus

/// Hands memory back to the system once a crowd of activities has gone.
///
/// glibc keeps freed memory in its free lists, so the daemon's resident size would stay at its peak after a
/// burst of thousands of activities (and of the messages that began and ended them). When the count falls back
/// to zero after such a peak, `malloc_trim` returns the free pages; it is not worth its cost after small peaks.
struct MemoryReturn {
    /// The peak of live activities after which emptying trims.
    static let peakWorthTrimming = 256

    private var peakSinceTrim = 0

    mutating func noteActivities(_ count: Int) {
        peakSinceTrim = max(peakSinceTrim, count)
        guard count == 0, peakSinceTrim >= Self.peakWorthTrimming else { return }
        peakSinceTrim = 0
        malloc_trim(0)
    }
}
