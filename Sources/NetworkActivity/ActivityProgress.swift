// SPDX-License-Identifier: Apache-2.0
import ProgramSupport

/// How far an activity is, as its owner last said: a percent, amounts of bytes, and the rate the amounts imply.
///
/// The rate is an exponential moving average of the rate between successive reports, with a time constant of
/// `rateSmoothing`: a report a second after the last moves it a quarter of the way to the new rate, so that it
/// follows a transfer that speeds up or stalls within a few seconds without jumping at every report.
public struct ActivityProgress: Sendable, Equatable {
    public static let rateSmoothing = Duration.seconds(3)

    /// 0 to 100; nil until the owner says.
    public private(set) var percent: UInt32?
    /// Bytes moved so far; nil until the owner says.
    public private(set) var done: UInt64?
    /// Bytes to move in all; nil when unknown.
    public private(set) var total: UInt64?
    /// Bytes per second; nil until two amounts have been reported, apart in time.
    public private(set) var rate: UInt64?
    private var lastReport: MonotonicTime?

    public init() {}

    /// Progress as it was saved: the rate goes on from `rate` at the next report.
    public init(percent: UInt32?, done: UInt64?, total: UInt64?, rate: UInt64?) {
        self.percent = percent
        self.done = done
        self.total = total
        self.rate = rate
    }

    /// Equal when they say the same: when the last report came is not part of what they say.
    public static func == (lhs: ActivityProgress, rhs: ActivityProgress) -> Bool {
        (lhs.percent, lhs.done, lhs.total, lhs.rate) == (rhs.percent, rhs.done, rhs.total, rhs.rate)
    }

    /// Whether anything is known.
    public var isKnown: Bool { percent != nil || done != nil }

    mutating func set(percent: UInt32) {
        self.percent = percent
    }

    /// Takes a report of `done` bytes out of `total` (0: unknown); the percent follows a known total.
    mutating func set(done: UInt64, total: UInt64, at now: MonotonicTime) {
        if total > 0 {
            self.total = total
            // done ≤ total, checked by the tracker, so the quotient is at most 100 whatever the amounts.
            percent = UInt32(total.dividingFullWidth(done.multipliedFullWidth(by: 100)).quotient)
        } else {
            self.total = nil
        }
        updateRate(done: done, at: now)
        self.done = done
    }

    /// Taken over by a new instance of the service at `now`: the next report's rate is measured from then.
    mutating func resume(at now: MonotonicTime) {
        if done != nil { lastReport = now }
    }

    private mutating func updateRate(done: UInt64, at now: MonotonicTime) {
        guard let previousDone = self.done, let lastReport, done >= previousDone else {
            // The first report, or a transfer that started over: no rate until the next one.
            rate = nil
            self.lastReport = now
            return
        }
        let elapsed = lastReport.duration(to: now).wholeMicroseconds
        // Reports in the same microsecond add up to one.
        guard elapsed > 0 else { return }
        let instant = Double(done - previousDone) * 1_000_000 / Double(elapsed)
        let smoothing = Double(Self.rateSmoothing.wholeMicroseconds)
        let weight = Double(elapsed) / (Double(elapsed) + smoothing)
        let smoothed = rate.map { Double($0) + (instant - Double($0)) * weight } ?? instant
        rate = smoothed >= Double(UInt64.max) ? UInt64.max : UInt64(smoothed.rounded())
        self.lastReport = now
    }
}
