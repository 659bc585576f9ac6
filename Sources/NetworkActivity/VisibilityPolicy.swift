// SPDX-License-Identifier: Apache-2.0
public import ProgramSupport

/// The delays that keep the indicator from flickering.
public struct VisibilityDelays: Sendable, Equatable {
    /// How long activities must be active without a break before the indicator shows.
    public var show: Duration
    /// How long no activity may be active, without a break, before the indicator hides.
    public var hide: Duration
    /// How long the indicator stays once shown, at the least.
    public var minimumVisible: Duration

    public init(show: Duration, hide: Duration, minimumVisible: Duration) {
        self.show = show
        self.hide = hide
        self.minimumVisible = minimumVisible
    }

    /// Show after 0.5 s (as KDE's job tracker), hide after 0.2 s (as Alamofire), stay at least 0.5 s.
    public static let standard = VisibilityDelays(show: .milliseconds(500), hide: .milliseconds(200),
                                                  minimumVisible: .milliseconds(500))
    /// The indicator follows "any activity is active" at once.
    public static let none = VisibilityDelays(show: .zero, hide: .zero, minimumVisible: .zero)
}

/// Decides whether the indicator shows, from whether anything is active and for how long.
///
/// The indicator shows once activities have been active for `show` without a break, and hides once none has
/// been active for `hide` without a break, but not before it has shown for `minimumVisible`.
public struct VisibilityPolicy: Sendable {
    public let delays: VisibilityDelays
    public private(set) var isVisible = false
    private var isBusy = false
    private var busySince = MonotonicTime(microseconds: 0)
    private var idleSince = MonotonicTime(microseconds: 0)
    private var shownAt = MonotonicTime(microseconds: 0)
    /// The delays in microseconds, converted once, since every request asks for `nextDeadline`.
    private let show, hide, minimumVisible: Int64

    public init(delays: VisibilityDelays) {
        self.delays = delays
        show = delays.show.wholeMicroseconds
        hide = delays.hide.wholeMicroseconds
        minimumVisible = delays.minimumVisible.wholeMicroseconds
    }

    /// When the visibility changes next unless activity changes first; nil when it is settled.
    public var nextDeadline: MonotonicTime? {
        switch (isBusy, isVisible) {
        case (true, false): busySince.advanced(byMicroseconds: show)
        case (false, true):
            max(idleSince.advanced(byMicroseconds: hide), shownAt.advanced(byMicroseconds: minimumVisible))
        default: nil
        }
    }

    /// Activities taken over from an earlier instance of the service, which had been showing them: shown at once.
    public mutating func showAtOnce(at now: MonotonicTime) {
        isBusy = true
        busySince = now
        guard !isVisible else { return }
        isVisible = true
        shownAt = now
    }

    /// Takes in whether anything is active at `now` (or only that time has passed); returns the new visibility
    /// when it changes.
    public mutating func update(isBusy: Bool, at now: MonotonicTime) -> Bool? {
        if isBusy != self.isBusy {
            self.isBusy = isBusy
            if isBusy { busySince = now } else { idleSince = now }
        }
        guard let deadline = nextDeadline, deadline <= now else { return nil }
        isVisible.toggle()
        if isVisible { shownAt = now }
        return isVisible
    }
}
