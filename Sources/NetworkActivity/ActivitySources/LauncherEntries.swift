// SPDX-License-Identifier: Apache-2.0
public import ProgramSupport

/// Progress that apps show on their launcher (`com.canonical.Unity.LauncherEntry.Update(s app_uri, a{sv})`), and
/// the rules that make it an activity: for the apps followed, one per sender and app while `progress-visible` is
/// true, with `progress` (0 to 1) as its percent.
///
/// Progress on a launcher is not always network work, so only the apps listed are followed: by default the
/// common browsers, which show their downloads there. An update carries only what changed, so what each sender
/// last said of each app is kept until it hides its progress or leaves the bus. A sender may send
/// `updatesPerSecond` updates in a second; the rest of that second's are ignored, so that a flood costs the service
/// one comparison each.
public struct LauncherEntries: Sendable {
    /// Chromium, Chrome, Brave, Edge and Vivaldi, as their packages and their Flatpaks name their desktop files.
    public static let browsers = [
        "chromium", "chromium-browser", "org.chromium.Chromium",
        "google-chrome", "google-chrome-beta", "google-chrome-unstable", "com.google.Chrome",
        "brave-browser", "com.brave.Browser",
        "microsoft-edge", "microsoft-edge-beta", "microsoft-edge-dev", "com.microsoft.Edge",
        "vivaldi-stable", "com.vivaldi.Vivaldi",
    ]
    public static let updatesPerSecond = 50
    /// What is kept of senders and apps at most; updates beyond are ignored.
    public static let maximumEntries = 4096

    public let followedApplications: Set<String>
    private var entries: [Entry.Key: Entry] = [:]
    private var budgets: [String: Budget] = [:]

    public init(followedApplications: some Sequence<String>) {
        self.followedApplications = Set(followedApplications)
    }

    /// What an update means for the activities.
    public enum Meaning: Sendable, Equatable {
        /// The app's progress shows: an activity, begun or changed.
        case shows(item: SourceWorkItem, application: String, percent: UInt32?)
        /// The app's progress no longer shows: its activity, if any, ends.
        case hidden(item: SourceWorkItem)
        /// Nothing to do; the reason, for a debug line, when the update was refused.
        case ignored(String?)
    }

    /// A value of an update's dictionary, of the types it may carry.
    public enum Value: Sendable, Equatable {
        case number(Double)
        case flag(Bool)
        /// A value of another type, which the keys followed never have.
        case other(signature: String)
    }

    /// Takes one `Update` signal from `sender` at `now`, for the app of this desktop file id (nil: its URI named
    /// none).
    public mutating func update(
        from sender: String, application: String?, properties: [String: Value], at now: MonotonicTime
    ) -> Meaning {
        guard Self.progressKeys.contains(where: { properties[$0] != nil }) else { return .ignored(nil) }
        guard let application else { return .ignored("\(sender) sent an app URI that is no desktop file's") }
        guard followedApplications.contains(application) else { return .ignored(nil) }
        guard spend(from: sender, at: now) else { return .ignored(nil) }
        let key = Entry.Key(sender: sender, application: application)
        var entry = entries[key] ?? Entry()
        switch properties["progress"] {
        case nil: break
        case .number(let progress) where (0...1).contains(progress):
            entry.percent = min(100, UInt32((progress * 100).rounded()))
        case .number(let progress):
            return .ignored("\(sender) sent a progress of \(progress) for \(application), out of 0 to 1")
        case .flag, .other:
            return .ignored("\(sender) sent a progress for \(application) that is no number")
        }
        switch properties["progress-visible"] {
        case nil: break
        case .flag(let visible): entry.isVisible = visible
        case .number, .other:
            return .ignored("\(sender) sent a progress-visible for \(application) that is no boolean")
        }
        let item = SourceWorkItem.launcherEntry(sender: sender, application: application)
        guard entry.isVisible else {
            entries[key] = nil
            return .hidden(item: item)
        }
        guard entries[key] != nil || entries.count < Self.maximumEntries else {
            return .ignored("\(sender)'s progress for \(application) is one too many to follow")
        }
        entries[key] = entry
        return .shows(item: item, application: application, percent: entry.percent)
    }

    /// The sender left the bus: what it said is forgotten (its activities end with it).
    public mutating func senderLeft(_ sender: String) {
        budgets[sender] = nil
        guard entries.keys.contains(where: { $0.sender == sender }) else { return }
        entries = entries.filter { $0.key.sender != sender }
    }

    private static let progressKeys = ["progress", "progress-visible"]

    private mutating func spend(from sender: String, at now: MonotonicTime) -> Bool {
        var budget = budgets[sender] ?? Budget(windowStart: now, spent: 0)
        if budget.windowStart.duration(to: now) >= .seconds(1) { budget = Budget(windowStart: now, spent: 0) }
        budget.spent += 1
        budgets[sender] = budget
        return budget.spent <= Self.updatesPerSecond
    }

    private struct Entry: Sendable {
        struct Key: Hashable, Sendable {
            var sender: String
            var application: String
        }
        var percent: UInt32?
        var isVisible = false
    }

    private struct Budget: Sendable {
        var windowStart: MonotonicTime
        var spent: Int
    }
}
