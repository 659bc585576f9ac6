// SPDX-License-Identifier: Apache-2.0
public import NetworkActivityClient
public import ProgramSupport

/// What docks and task bars are told of each app's progress, on its icon
/// (`com.canonical.Unity.LauncherEntry.Update("application://ID.desktop", {progress, progress-visible})`), and when.
///
/// An app's progress is the tray's overall percent over that app's activities that have progress; an app whose
/// activities have none any more is told `progress-visible` false. Docks set their own limits, which this keeps:
/// Plank and elementary's dock ignore a sender that sends more than 3 updates within 32 ms, so an app hears at most
/// one update every `perApplicationInterval` and no two updates go out within `burstWindow` / 2 of each other. An
/// app that another sender shows progress for (a browser, an Electron app) keeps its own: it is left alone from then
/// on. Activities that a source made from an app's own launcher entries are never sent back.
public struct LauncherProgress: Sendable {
    public static let perApplicationInterval: Duration = .milliseconds(500)
    /// No three updates in this window, across apps.
    public static let burstWindow: Duration = .milliseconds(32)

    /// One `Update` to send.
    public struct Update: Sendable, Equatable {
        public let application: String
        /// 0 to 1; nil when hidden.
        public let progress: Double?

        public var isVisible: Bool { progress != nil }

        public init(application: String, progress: Double?) {
            self.application = application
            self.progress = progress
        }
    }

    /// What each app should show now: its progress, 0 to 1.
    private var wanted: [String: Double] = [:]
    /// What docks last heard of each app shown: its progress. Apps hidden again are removed.
    public private(set) var shown: [String: Double] = [:]
    /// Each app shown: when it may hear again.
    private var pacings: [String: ChangePacing] = [:]
    /// The last two sends, across apps.
    private var recentSends: [MonotonicTime] = []
    private var foreign: Set<String> = []

    public init() {}

    /// Takes the activities now; `hasDesktopFile` tells whether an app id names an installed desktop file.
    public mutating func follow(_ activities: [ActivityStatus], hasDesktopFile: (String) -> Bool) {
        var byApplication: [String: [ActivityStatus]] = [:]
        for activity in activities where activity.source != .launcher && activity.isShowingProgress {
            guard let application = activity.application, Self.isDesktopID(application), !foreign.contains(application),
                  hasDesktopFile(application) else { continue }
            byApplication[application, default: []].append(activity)
        }
        wanted = byApplication.compactMapValues { activities in
            OverallProgress.percent(of: activities).map { Double($0) / 100 }
        }
    }

    /// Another connection showed progress for `application`: from now on, it is that app's own, and nothing more
    /// is sent for it, not even a hide, which would hide the app's own bar.
    public mutating func anotherSenderShows(_ application: String) {
        foreign.insert(application)
        wanted[application] = nil
        shown[application] = nil
        pacings[application] = nil
    }

    /// Whether another sender shows `application`'s progress.
    public func isForeign(_ application: String) -> Bool { foreign.contains(application) }

    /// The updates due at `now`, in the order to send them, and when the next one falls due; each is taken as sent.
    public mutating func due(at now: MonotonicTime) -> (updates: [Update], next: MonotonicTime?) {
        var updates: [Update] = []
        var next: MonotonicTime?
        for application in Set(wanted.keys).union(shown.keys).sorted() {
            let target = wanted[application]
            guard target != shown[application] else { continue }
            let allowed = max(pacings[application]?.nextAllowed ?? now, burstAllowed(now))
            // A hide goes out as soon as the burst allows: a dock must not show a finished bar for half a second.
            let at = target == nil ? burstAllowed(now) : allowed
            guard at <= now else {
                next = next.map { min($0, at) } ?? at
                continue
            }
            updates.append(Update(application: application, progress: target))
            noteSent(application, target, at: now)
        }
        return (updates, next)
    }

    /// Every app shown, hidden: when the tray stops, since a dock keeps what a sender that left last said of all
    /// but one of its apps.
    public mutating func hideAll() -> [Update] {
        defer {
            shown = [:]
            wanted = [:]
        }
        return shown.keys.sorted().map { Update(application: $0, progress: nil) }
    }

    /// Whether `id` can be sent in `application://ID.desktop`: a desktop file id, no path, nothing a dock would
    /// misread.
    public static func isDesktopID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 255 && !id.hasPrefix(".") && !id.hasPrefix("-")
            && id.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                                   || "._-".unicodeScalars.contains(scalar))
            }
    }

    private func burstAllowed(_ now: MonotonicTime) -> MonotonicTime {
        // Two sends already in the window: the third waits until the older leaves it.
        guard recentSends.count == 2, let older = recentSends.first else { return now }
        return max(now, older + Self.burstWindow)
    }

    private mutating func noteSent(_ application: String, _ progress: Double?, at now: MonotonicTime) {
        if let progress {
            shown[application] = progress
            pacings[application, default: ChangePacing(interval: Self.perApplicationInterval)].announced(at: now)
        } else {
            shown[application] = nil
            pacings[application] = nil
        }
        recentSends.append(now)
        if recentSends.count > 2 { recentSends.removeFirst() }
    }
}

extension ActivityStatus {
    /// Whether it has progress to show on a dock: a percent, or amounts that give one.
    fileprivate var isShowingProgress: Bool { self.percent != nil || (self.total ?? 0) > 0 }
}
